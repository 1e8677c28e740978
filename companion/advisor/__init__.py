"""Strategy and odds: optimal play and bid probabilities (pure; numpy allowed)."""
