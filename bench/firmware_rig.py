"""Balance firmware in the simulator: what the rig costs and how fast the firmware answers.

    python bench/firmware_rig.py [--repeat 5]

Prints medians over the repeats:
- rig CPU seconds per simulated second (two amplifiers at 80 SPS, streaming), and how
  many simulated seconds pass per wall-clock second when the rig runs unpaced;
- the firmware's time to clock one reading out of an HX711 (simulated microseconds);
- host round trips at real-time pace: PING to its reply, and a stored calibration
  (CAL, answered once written to EEPROM), wall-clock milliseconds;
- flash and static RAM of the firmware.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.scale import protocol as proto
from tests.support.firmware_rig import FirmwareRig, fresh_board


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().split()
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


def rig_cost(repeat: int) -> tuple[float, float]:
    """(CPU s per simulated s, simulated s per wall s), unpaced."""
    costs, speeds = [], []
    for _ in range(repeat):
        with FirmwareRig(speed=0) as rig:
            rig.set_raw(0, 1000)
            rig.set_raw(1, -1000)
            rig.wait_ms(200)
            pid = rig._proc.pid
            cpu0, wall0 = _cpu_seconds(pid), time.monotonic()
            rig.wait_ms(3000)
            costs.append((_cpu_seconds(pid) - cpu0) / 3.0)
            speeds.append(3.0 / (time.monotonic() - wall0))
    return statistics.median(costs), statistics.median(speeds)


def round_trips(repeat: int) -> tuple[float, float, float]:
    """(read µs, PING ms, CAL ms) medians."""
    pings, cals = [], []
    with FirmwareRig() as rig:
        link = fresh_board(rig)
        link.usable(0, 2)
        for i in range(20 * repeat):
            started = time.monotonic()
            assert link.request(proto.ping_command(f"b{i}")) == proto.Pong(f"b{i}")
            pings.append((time.monotonic() - started) * 1000)
        for i in range(5 * repeat):
            started = time.monotonic()
            reply = link.request(proto.calibration_command(0, i, 430 + i, f"bench{i}"))
            assert isinstance(reply, proto.Calibration)
            cals.append((time.monotonic() - started) * 1000)
        read_us = float(rig.chip_status(0)["read_us"])
        link.close()
    return read_us, statistics.median(pings), statistics.median(cals)


def firmware_size() -> tuple[int, int]:
    elf = Path(__file__).resolve().parents[1] / "firmware" / "build" / "purser_balance.elf"
    out = subprocess.run(["avr-size", "-A", str(elf)], capture_output=True, text=True, check=True).stdout
    size = {line.split()[0]: int(line.split()[1]) for line in out.splitlines() if line.startswith(".")}
    return size[".text"] + size.get(".data", 0), size.get(".data", 0) + size.get(".bss", 0) + size.get(".noinit", 0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"command: python bench/firmware_rig.py --repeat {args.repeat}   (load average {os.getloadavg()[0]:.1f})")
    cost, speed = rig_cost(args.repeat)
    print(f"rig CPU per simulated second (2 x 80 SPS, streaming): {cost:.3f} s   median of {args.repeat}")
    print(f"unpaced simulation speed: {speed:.1f} x real time   median of {args.repeat}")
    read_us, ping_ms, cal_ms = round_trips(args.repeat)
    print(f"firmware time to clock out one HX711 reading: {read_us:.0f} us (simulated)")
    print(f"PING round trip through the firmware: {ping_ms:.1f} ms   median of {20 * args.repeat}")
    print(f"CAL (stored in EEPROM) round trip: {cal_ms:.1f} ms   median of {5 * args.repeat}")
    flash, ram = firmware_size()
    print(f"firmware: {flash} bytes flash of 30720 (old-bootloader Nano), {ram} bytes static RAM of 2048")
    return 0


if __name__ == "__main__":
    sys.exit(main())
