"""`purser scale watch|weigh|tare|info [URL]` and `purser calibrate scale [URL]`."""

from __future__ import annotations

import argparse
import math
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from companion.cli.common import print_json
from companion.scale.errors import ScaleError

DEFAULT_URL = "auto://"
URL_HELP = "the balance: auto:// (default: find it, else the simulator), sim://, serial:///dev/ttyUSB0, openscale://PORT, hx711://?dout=5&sck=6"


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``scale`` and ``calibrate`` commands."""
    p = sub.add_parser("scale", help="the booty balance: watch, weigh, tare, info")
    actions = p.add_subparsers(dest="scale_command", metavar="ACTION", required=True)

    w = actions.add_parser("watch", help="live readings with the stable flag, until Ctrl-C")
    w.add_argument("url", nargs="?", default=DEFAULT_URL, help=URL_HELP)
    w.add_argument("--channel", type=int, default=None, help="only this pan (default: all)")
    w.add_argument("--count", type=int, default=0, help="stop after this many readings (default: never)")
    w.add_argument("--json", action="store_true", help="one JSON object per reading")
    w.set_defaults(func=run_watch)

    g = actions.add_parser("weigh", help="one stable weighing")
    g.add_argument("url", nargs="?", default=DEFAULT_URL, help=URL_HELP)
    g.add_argument("--channel", type=int, default=0, help="the pan (0, or 1 on a two-pan balance)")
    g.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for a steady weight (default 10)")
    g.add_argument("--json", action="store_true", help='print {"grams", "uncertainty_g", "samples", "channel", "calibration"}')
    g.set_defaults(func=run_weigh)

    t = actions.add_parser("tare", help="take the present load as zero (kept for the next run)")
    t.add_argument("url", nargs="?", default=DEFAULT_URL, help=URL_HELP)
    t.add_argument("--channel", type=int, default=0, help="the pan")
    t.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for a steady load")
    t.set_defaults(func=run_tare)

    i = actions.add_parser("info", help="what the balance is, its calibration and its status")
    i.add_argument("url", nargs="?", default=DEFAULT_URL, help=URL_HELP)
    i.add_argument("--json", action="store_true", help="print JSON")
    i.set_defaults(func=run_info)

    c = sub.add_parser("calibrate", help="calibrate a device: `purser calibrate scale`")
    what = c.add_subparsers(dest="calibrate_what", metavar="DEVICE", required=True)
    s = what.add_parser(
        "scale",
        help="calibrate the balance with known masses",
        description="Empty pan, then each known mass, the cycle --repeats times; a least-squares fit, "
        "its residuals, linearity and repeatability, and a verdict against OIML R76 class III. "
        "The profile is saved in your data folder (and in the balance when its firmware keeps one). "
        "Coins make good masses: see calibration/PROCEDURE.md.",
    )
    s.add_argument("url", nargs="?", default=DEFAULT_URL, help=URL_HELP)
    s.add_argument("--masses", required=True, help="known masses in grams, e.g. 100,200,500")
    s.add_argument("--yes", action="store_true", help="do not ask: wait for each load to change and settle")
    s.add_argument("--repeats", type=int, default=2, help="cycles through the loads (default 2: measures repeatability)")
    s.add_argument("--interval", type=float, default=None, help="scale interval e in grams for the verdict (default: the balance's)")
    s.add_argument("--capacity", type=float, default=None, help="the balance's maximum load in grams (default: the balance's)")
    s.add_argument("--channel", type=int, default=0, help="the pan")
    s.add_argument("--step-timeout", type=float, default=120.0, help="seconds each load may take to settle")
    s.add_argument("--out", type=Path, default=None, help="folder for the profile, session log and plot (default: the data folder)")
    s.add_argument("--no-eeprom", action="store_true", help="do not store the calibration in the balance")
    s.add_argument("--json", action="store_true", help="print the profile as JSON at the end")
    s.set_defaults(func=run_calibrate)


def _open(url: str) -> Any:
    from companion.scale import open_scale

    scale = open_scale(url)
    status = scale.status()
    if status.simulated and status.message and url.startswith("auto"):
        print(f"!! {status.message}", file=sys.stderr)
    return scale


def _decimals(interval_g: float) -> int:
    return max(0, -math.floor(math.log10(interval_g) + 1e-9)) if interval_g > 0 else 3


def run_watch(args: argparse.Namespace) -> int:
    """Print readings until interrupted (or ``--count``)."""
    with _open(args.url) as scale:
        if args.channel is not None:
            scale.calibration(args.channel)  # refuses a pan the balance does not have
        shown = 0
        for reading in scale.readings(timeout=5.0):
            s = reading.sample
            if args.channel is not None and s.channel != args.channel:
                continue
            if args.json:
                print_json(reading.to_json())
            else:
                d = _decimals(scale.calibration(s.channel).interval_g)
                weight = "      ----  " if reading.net_g is None else f"{reading.net_g + 0.0:10.{d}f} g"
                flag = "stable" if reading.stable else reading.reason
                print(f"pan {s.channel}  {weight}  raw {s.raw:9d}  {flag}", flush=True)
            shown += 1
            if args.count and shown >= args.count:
                break
    return 0


def run_weigh(args: argparse.Namespace) -> int:
    """One stable weighing; a clear error and exit 1 when none comes in time."""
    with _open(args.url) as scale:
        w = scale.weigh_stable(timeout=args.timeout, channel=args.channel)
        if args.json:
            print_json(
                {
                    "grams": round(w.grams, 4),
                    "uncertainty_g": round(w.uncertainty_g, 4),
                    "samples": w.samples,
                    "channel": w.channel,
                    "calibration": w.calibration,
                }
            )
        else:
            d = _decimals(scale.calibration(w.channel).interval_g)
            print(
                f"{round(w.grams, d) + 0.0:.{d}f} g  (+- {w.uncertainty_g:.{d + 1}f} g, pan {w.channel}, "
                f"{w.samples} readings, calibration {w.calibration})"
            )
    return 0


def run_tare(args: argparse.Namespace) -> int:
    """Zero the pan on its present load."""
    with _open(args.url) as scale:
        scale.tare(channel=args.channel, timeout=args.timeout)
        kept = " (kept for the next run)" if getattr(scale, "persist_zero", False) else ""
        print(f"pan {args.channel} zeroed{kept}")
    return 0


def run_info(args: argparse.Namespace) -> int:
    """Describe the balance."""
    with _open(args.url) as scale:
        info = scale.info()
        status = scale.status()
        info["status"] = {
            "connected": status.connected,
            "simulated": status.simulated,
            "chip_fault": status.chip_fault,
            "saturated": status.saturated,
            "message": status.message,
        }
        if args.json:
            print_json(info)
            return 0
        print(f"balance   {info.get('device_id') or '?'} ({info.get('backend', '')}) at {info.get('url')}")
        for key in ("port", "firmware", "protocol", "rate_sps", "channels"):
            if key in info:
                print(f"{key:<9} {info[key]}")
        for cal in info.get("calibrations", []):
            print(
                f"pan {cal['channel']}     calibration {cal['id']} ({cal['source']}): {cal['counts_per_gram']:.4f} counts/g, "
                f"e = {cal['interval_g']:g} g, Max = {cal['capacity_g']:g} g, fit error {cal['sigma_g']:.4f} g"
            )
        if status.message:
            print(f"status    {status.message}")
    return 0


def _progress_printer(stream: Any) -> Any:
    tty = stream.isatty()

    def progress(index: int, total: int, mass: float, readings: int, reason: str) -> None:
        bar = "#" * min(20, readings // 4) + "." * max(0, 20 - readings // 4)
        line = f"  load {index + 1}/{total}: {mass:g} g  [{bar}] {readings} readings, {reason}"
        if tty:
            stream.write("\r" + line.ljust(78))
            if reason == "stable":
                stream.write("\n")
            stream.flush()
        elif reason == "stable":
            stream.write(line + "\n")
            stream.flush()

    return progress


def _asker(scale: Any, args: argparse.Namespace) -> Any:
    from companion.scale.calprocedure import sim_placer

    if getattr(scale, "simulated", False) and hasattr(scale, "place"):
        placer = sim_placer(scale, args.channel)

        def ask_sim(mass: float, index: int, total: int) -> None:
            print(f"load {index + 1}/{total}: the simulator puts {mass:g} g on the pan", file=sys.stderr)
            placer(mass, index, total)

        return ask_sim

    def ask(mass: float, index: int, total: int) -> None:
        what = "Empty the pan" if mass == 0 else f"Put {mass:g} g on the pan (nothing else)"
        if args.yes:
            print(f"load {index + 1}/{total}: {what}; waiting for it to settle", file=sys.stderr)
            return
        try:
            input(f"load {index + 1}/{total}: {what}, then press Enter ")
        except EOFError as exc:
            raise ScaleError("calibration needs someone at the keyboard (or --yes)") from exc

    return ask


def run_calibrate(args: argparse.Namespace) -> int:
    """Run the calibration procedure, save the profile, session log and plot."""
    from companion.scale.calibration import write_session
    from companion.scale.calplot import save_plot
    from companion.scale.calprocedure import Plan, calibrate, masses_from_text
    from companion.scale.profile import profile_dir, profile_path, save_profile

    masses = masses_from_text(args.masses)
    with _open(args.url) as scale:
        if not hasattr(scale, "fresh_samples"):
            raise ScaleError("this kind of balance cannot be calibrated by Purser")
        current = scale.calibration(args.channel)
        plan = Plan(
            masses=masses,
            interval_g=args.interval or current.interval_g,
            capacity_g=args.capacity or current.capacity_g,
            repeats=args.repeats,
            channel=args.channel,
            step_timeout_s=args.step_timeout,
        )
        print(
            f"Calibrating pan {args.channel} of {scale.device_id or scale.url} with {', '.join(f'{m:g} g' for m in masses)}, "
            f"{plan.repeats} cycle(s)",
            file=sys.stderr,
        )
        session, profile = calibrate(scale, plan, _asker(scale, args), _progress_printer(sys.stderr))
        cal = profile.calibration
        folder = args.out or profile_dir()
        target = (folder / profile_path(cal.device_id, cal.channel).name) if args.out else profile_path(cal.device_id, cal.channel)
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S")
        stem = target.name.removesuffix(".json")
        save_profile(profile, target)
        session_path = write_session(session, target.parent / f"{stem}-{stamp}.session.json")
        plot_path = save_plot(profile.report, plan.interval_g, plan.capacity_g, target.parent / f"{stem}.png",
                              f"{cal.device_id} pan {cal.channel}: {cal.id}")
        stored = False
        if not args.no_eeprom:
            try:
                stored = scale.write_calibration(cal)
            except ScaleError as exc:
                print(f"the balance did not keep the calibration: {exc}", file=sys.stderr)
        scale.set_calibration(cal)
    report = profile.report
    if args.json:
        print_json(profile.to_json())
        return 0
    print(f"calibration {cal.id}: {cal.counts_per_gram:.4f} counts/g, zero at {cal.zero_counts:.1f} counts")
    for point, residual in zip(report["points"], report["residuals_g"]):
        print(f"  {point['mass_g']:8g} g  error {residual:+.4f} g  ({point['n']} readings)")
    print(f"fit error {cal.sigma_g:.4f} g, linearity {report['linearity_pct']:.4f} % of capacity")
    for rep in report["repeatability"]:
        print(f"  repeatability at {rep['mass_g']:g} g: spread {rep['spread_g']:.4f} g")
    verdict = report["verdict"]
    if verdict["passed"]:
        print(f"meets OIML R76 class III at e = {plan.interval_g:g} g ({verdict['intervals']:g} intervals)")
    else:
        print(f"does NOT meet OIML R76 class III at e = {plan.interval_g:g} g:")
        for failure in verdict["failures"]:
            print(f"  - {failure}")
    print(f"saved {target}\nsession log {session_path}\nplot {plot_path}")
    print("stored in the balance too" if stored else "(the balance keeps no calibration of its own: Purser's profile is used)")
    return 0
