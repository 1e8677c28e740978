"""The two small networks of the dice reader (PyTorch, for training and ONNX export)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

import torch
from torch import nn

from companion.vision.preprocess import FINDER_CHANNELS, N_CLASSES


def cbr(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    """3x3 convolution, batch norm, ReLU."""
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class Finder(nn.Module):
    """Die centres and sizes at 1/4 resolution: a 1/4 branch for detail, a dilated 1/8 branch for context."""

    def __init__(self, c1: int = 16, c2: int = 32, c3: int = 48) -> None:
        super().__init__()
        self.fine = nn.Sequential(cbr(3, c1, 2), cbr(c1, c2, 2), cbr(c2, c2))
        self.coarse = nn.Sequential(cbr(c2, c3, 2), cbr(c3, c3, 1, 2), cbr(c3, c3, 1, 4))
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.head = nn.Sequential(cbr(c2 + c3, c2), nn.Conv2d(c2, FINDER_CHANNELS, 1))
        with torch.no_grad():
            self.head[-1].bias.zero_()
            self.head[-1].bias[0] = -4.0  # start by predicting "no die" almost everywhere

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f = self.fine(x)
        return self.head(torch.cat([f, self.up(self.coarse(f))], 1))


#: The stem of the shipped face readers (``FaceReader.STEMS``).
SHIPPED_STEM = "fine"
#: The head of the shipped face readers (``FaceReader.HEADS``).
SHIPPED_HEAD = "plain"


class FaceReader(nn.Module):
    """Top-face value (or "not a die") of the die centred in a 48x48 crop.

    ``stem="fine"`` (the shipped readers): a thin first layer sees the crop at full
    resolution before striding, so small pips and glints keep their edges.
    ``stem="strided"`` (the readers shipped before): the first layer strides by 2, so pips
    are seen at 24x24, for about 0.75 times the cost.
    ``head="plain"`` (the shipped readers): after the second pooling, one layer of 96
    channels at 6x6; ``head="deep"`` adds one of 128 there, for about 1.25 times the cost.
    """

    #: The first layers, up to 32 channels at 24x24, by stem name.
    STEMS: ClassVar[dict[str, Callable[[], list[nn.Module]]]] = {
        "strided": lambda: [cbr(3, 16, 2), cbr(16, 32)],
        "fine": lambda: [cbr(3, 12), cbr(12, 24, 2), cbr(24, 32)],
    }

    #: The last layers, from 64 channels at 12x12, and the channels they end with, by head name.
    HEADS: ClassVar[dict[str, tuple[Callable[[], list[nn.Module]], int]]] = {
        "plain": (lambda: [nn.MaxPool2d(2), cbr(64, 96)], 96),
        "deep": (lambda: [nn.MaxPool2d(2), cbr(64, 96), cbr(96, 128)], 128),
    }

    def __init__(self, stem: str = SHIPPED_STEM, head: str = SHIPPED_HEAD) -> None:
        super().__init__()
        if stem not in self.STEMS:
            raise ValueError(f"unknown face reader stem {stem!r}; choose from {sorted(self.STEMS)}")
        if head not in self.HEADS:
            raise ValueError(f"unknown face reader head {head!r}; choose from {sorted(self.HEADS)}")
        last_layers, channels = self.HEADS[head]
        self.body = nn.Sequential(
            *self.STEMS[stem](),
            nn.MaxPool2d(2),
            cbr(32, 64),
            cbr(64, 64),
            *last_layers(),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Dropout(0.2),
            nn.Linear(channels, N_CLASSES),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)
