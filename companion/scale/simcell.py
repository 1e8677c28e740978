"""A load cell and HX711 as numbers: what the simulated balance reads (pure numpy).

The model of one pan, in grams unless said otherwise:

- each placement or removal is a step that rises in ``rise_s`` and rings at ``ring_hz``
  with an overshoot of 5-30 % of the step (drawn from the seed) decaying with
  ``settle_s``: the pan bouncing after a collection is dropped on it;
- creep: the cell slowly reads more of a load it has carried (``creep`` of the load,
  time constant ``creep_s``);
- drift: the zero wanders as a random walk (``drift`` grams per square-root second);
- non-linearity: a bow of ``nonlinearity`` x capacity at mid-range;
- off-centre loading: a piece on the worst corner reads ``corner`` of its weight too much
  (the opposite corner as much too little, the other two corners less);
- mains pickup: a ``hum`` of that many grams at ``mains_hz`` (50 Hz), which a 10 SPS
  conversion (five whole cycles long) cancels and an 80 SPS one does not;
- the HX711: each conversion averages its input over its period (1/rate);
  ``counts_per_gram`` (a 1 mV/V cell at about 4.3 V on gain 128 gives about
  2,150 counts per gram on a 1 kg cell), Gaussian noise (datasheet: 50 nV rms at 10 SPS,
  90 nV at 80 SPS, i.e. about 21 and 38 counts), 24-bit two's complement output that
  saturates at -8,388,608 and 8,388,607.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

RAW_MIN = -(1 << 23)
RAW_MAX = (1 << 23) - 1

#: Datasheet input noise (counts rms) at each HX711 rate.
NOISE_COUNTS = {10: 21.0, 80: 38.0}

#: Where a load may sit on a pan, and how much of the worst corner's error it gets: the
#: pan tilts the cell a little about a skew axis, so opposite corners err oppositely.
POSITIONS = {
    "centre": 0.0,
    "front-left": -1.0,
    "front-right": -0.2 / 1.4,
    "back-left": 0.2 / 1.4,
    "back-right": 1.0,
}


@dataclass(frozen=True)
class CellParams:
    """The physical constants of one simulated pan (see the module docstring)."""

    capacity_g: float = 1000.0
    counts_per_gram: float = 2150.0
    zero_counts: float = 84_213.0
    noise_counts: float = 38.0
    nonlinearity: float = 5e-5
    drift: float = 0.002
    creep: float = 2e-4
    creep_s: float = 600.0
    settle_s: float = 0.12
    rise_s: float = 0.03
    ring_hz: float = 5.0
    spikes: float = 0.0
    corner: float = 0.0
    hum: float = 0.0
    mains_hz: float = 50.0


@dataclass(frozen=True)
class Step:
    """One change of load: ``delta`` grams at time ``t0`` with its ringing ``overshoot``."""

    t0: float
    delta: float
    overshoot: float

    def response(self, t: float, p: CellParams) -> float:
        """Grams this step contributes at ``t`` (its transient, without creep)."""
        s = t - self.t0
        if s <= 0:
            return 0.0
        rise = 1.0 - math.exp(-s / p.rise_s) if p.rise_s > 0 else 1.0
        ring = self.overshoot * math.exp(-s / p.settle_s) * math.sin(2 * math.pi * p.ring_hz * s)
        return self.delta * (rise + ring)

    def envelope(self, t: float, p: CellParams) -> float:
        """An upper bound of how far this step is from its final value at ``t`` (grams)."""
        s = t - self.t0
        if s <= 0:
            return abs(self.delta)
        rise = math.exp(-s / p.rise_s) if p.rise_s > 0 else 0.0
        ring = abs(self.overshoot) * math.exp(-s / p.settle_s)
        return abs(self.delta) * (rise + ring)


@dataclass
class Pan:
    """The changing state of one simulated pan."""

    params: CellParams
    settled_g: float = 0.0
    steps: list[Step] = field(default_factory=list)
    creep_loads: list[tuple[float, float]] = field(default_factory=list)
    drift_g: float = 0.0
    pieces: list[float] = field(default_factory=list)
    felt: list[float] = field(default_factory=list)
    drift_t: float | None = None

    def position_factor(self, position: str) -> float:
        """How much of a piece's weight the cell reads at ``position`` (1 at the centre)."""
        return 1.0 + self.params.corner * POSITIONS[position]

    def change(self, t0: float, delta: float, rng: np.random.Generator, settled: bool = False) -> None:
        """Add ``delta`` grams at ``t0`` (instantly settled, or with a transient)."""
        if delta == 0:
            return
        self.fold(t0)
        if settled:
            self.settled_g += delta
        else:
            overshoot = float(rng.uniform(0.05, 0.3))
            self.steps.append(Step(t0, delta, overshoot))
        self.creep_loads.append((t0, delta))

    def fold(self, t: float) -> None:
        """Fold steps whose transient has died out (below 1e-9 of them) into the settled load."""
        keep = []
        for step in self.steps:
            if step.envelope(t, self.params) <= 1e-9 * max(abs(step.delta), 1.0):
                self.settled_g += step.delta
            else:
                keep.append(step)
        self.steps = keep

    def true_load(self, t: float) -> float:
        """The load the cell feels at ``t`` (grams, transients and creep, no noise or drift)."""
        p = self.params
        load = self.settled_g + sum(s.response(t, p) for s in self.steps)
        if p.creep:
            load += sum(d * p.creep * (1.0 - math.exp(-max(0.0, t - t0) / p.creep_s)) for t0, d in self.creep_loads)
        return load

    def final_load(self) -> float:
        """The load once everything has settled (no creep)."""
        return self.settled_g + sum(s.delta for s in self.steps)

    def settling_time(self, t: float, tolerance_g: float) -> float:
        """Seconds after ``t`` until the transients stay within ``tolerance_g`` (0 if settled)."""
        if not self.steps:
            return 0.0
        dt = 0.001
        s = 0.0
        while sum(step.envelope(t + s, self.params) for step in self.steps) > tolerance_g and s < 60.0:
            s += dt
        return s

    def mean_load(self, t: float, period: float) -> float:
        """The load averaged over the conversion that ends at ``t`` and lasted ``period`` s
        (the HX711 integrates its input: a 10 SPS conversion smooths a pan's ringing more
        than an 80 SPS one), with the mains hum's average over the same time."""
        p = self.params
        if period <= 0:
            load = self.true_load(t)
        else:
            points = 8
            load = math.fsum(self.true_load(t - period * (i + 0.5) / points) for i in range(points)) / points
        if p.hum:
            w = 2.0 * math.pi * p.mains_hz
            if period <= 0:
                load += p.hum * math.sin(w * t)
            else:
                load += p.hum * (math.cos(w * (t - period)) - math.cos(w * t)) / (w * period)
        return load

    def raw(self, t: float, rng: np.random.Generator, period: float = 0.0) -> tuple[int, bool]:
        """One ADC conversion ending at ``t`` (lasting ``period`` s): counts and whether it saturated."""
        p = self.params
        if self.drift_t is not None and p.drift and t > self.drift_t:
            self.drift_g += float(rng.normal(0.0, p.drift * math.sqrt(t - self.drift_t)))
        self.drift_t = t
        load = self.mean_load(t, period)
        x = load / p.capacity_g
        bow = 4.0 * p.nonlinearity * p.capacity_g * x * (1.0 - x)
        counts = p.zero_counts + p.counts_per_gram * (load + bow + self.drift_g)
        if p.noise_counts:
            counts += float(rng.normal(0.0, p.noise_counts))
        if p.spikes and rng.random() < p.spikes:
            counts += float(rng.choice([-1.0, 1.0])) * float(rng.uniform(50.0, 500.0)) * p.counts_per_gram
        value = round(counts)
        if value >= RAW_MAX:
            return RAW_MAX, True
        if value <= RAW_MIN:
            return RAW_MIN, True
        return value, False
