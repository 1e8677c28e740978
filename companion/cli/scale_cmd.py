"""`purser scale watch|weigh|tare|info [URL]` and `purser calibrate scale [URL]`."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

from companion.cli.common import print_json
from companion.pans import pan_name
from companion.scale.errors import ScaleError

DEFAULT_URL = "auto://"
URL_HELP = (
    "the balance: auto:// (default: find it, else the simulator), sim://, serial:///dev/ttyUSB0, "
    "openscale://PORT, hx711://?dout=5&sck=6"
)
#: While the balance is away, `scale watch` says so again this often (seconds).
WAITING_REPEAT_S = 10.0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``scale`` and ``calibrate`` commands."""
    p = sub.add_parser("scale", help="the booty balance: watch, weigh, tare, info")
    actions = p.add_subparsers(dest="scale_command", metavar="ACTION", required=True)

    w = actions.add_parser("watch", help="live readings with the stable flag, until Ctrl-C (waits through unplugging)")
    w.add_argument("url", nargs="?", default=DEFAULT_URL, help=URL_HELP)
    w.add_argument("--channel", type=int, default=None, help="only this pan: 0 for pan A, 1 for pan B (default: all)")
    w.add_argument("--count", type=int, default=0, help="stop after this many readings (default: never)")
    w.add_argument("--json", action="store_true", help="one JSON object per reading (and per wait)")
    w.set_defaults(func=run_watch)

    g = actions.add_parser("weigh", help="one stable weighing")
    g.add_argument("url", nargs="?", default=DEFAULT_URL, help=URL_HELP)
    g.add_argument("--channel", type=int, default=0, help="the pan: 0 for pan A, 1 for pan B on a two-pan balance")
    g.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for a steady weight (default 10)")
    g.add_argument(
        "--json", action="store_true", help='print {"grams", "uncertainty_g", "samples", "channel", "calibration", ...}'
    )
    g.set_defaults(func=run_weigh)

    t = actions.add_parser("tare", help="take the present load as zero (kept for the next run)")
    t.add_argument("url", nargs="?", default=DEFAULT_URL, help=URL_HELP)
    t.add_argument("--channel", type=int, default=0, help="the pan: 0 for pan A, 1 for pan B")
    t.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for a steady load")
    t.set_defaults(func=run_tare)

    i = actions.add_parser("info", help="what the balance is, its calibration, each pan's noise and state")
    i.add_argument("url", nargs="?", default=DEFAULT_URL, help=URL_HELP)
    i.add_argument(
        "--listen",
        type=float,
        default=1.5,
        help="seconds to read first, so the noise at rest is measured (default 1.5; 0: none)",
    )
    i.add_argument("--json", action="store_true", help="print JSON")
    i.set_defaults(func=run_info)

    c = sub.add_parser("calibrate", help="calibrate a device: `purser calibrate scale`")
    what = c.add_subparsers(dest="calibrate_what", metavar="DEVICE", required=True)
    s = what.add_parser(
        "scale",
        help="calibrate the balance with known masses",
        description="Empty pan, then each known mass, the cycle --repeats times; then the --check masses, "
        "which verify the fit and are not part of it (without them the last cycle checks the others); then "
        "one mass on each corner of the pan and one left on it for --creep seconds. It reports the fit, "
        "the error at each check load and what may be claimed: OIML R76 class III up to the heaviest check "
        "load when the evidence supports it, else +-x g up to that load. The profile is saved in your data "
        "folder (and in the balance when its firmware keeps one). Coins make good masses: see "
        "calibration/PROCEDURE.md.",
    )
    s.add_argument("url", nargs="?", default=DEFAULT_URL, help=URL_HELP)
    s.add_argument(
        "--masses", required=True, help="known masses in grams to fit, e.g. 100,200,500 (a tolerance each: 100+-0.005)"
    )
    s.add_argument(
        "--check",
        default="",
        help="known masses in grams that verify the fit, e.g. 50,150,400 (default: the last cycle)",
    )
    s.add_argument(
        "--mass-class",
        default=None,
        help="what the masses are, for their tolerance: F2, M1, M2, M3 (OIML R111 test weights), "
        "coins, exact (default M3, or exact for the simulator)",
    )
    s.add_argument("--yes", action="store_true", help="do not ask: wait for each load to change and settle")
    s.add_argument(
        "--repeats", type=int, default=2, help="cycles through the loads (default 2: measures repeatability)"
    )
    s.add_argument("--no-corner", action="store_true", help="skip the corner test (off-centre loading)")
    s.add_argument(
        "--corner-mass", type=float, default=None, help="the mass for the corner test (default: about Max/3)"
    )
    s.add_argument(
        "--creep",
        type=float,
        default=60.0,
        help="seconds the heaviest mass stays on to measure creep (default 60; 0 skips it)",
    )
    s.add_argument(
        "--interval",
        type=float,
        default=None,
        help="scale interval e in grams for the verdict (default: the balance's)",
    )
    s.add_argument(
        "--capacity", type=float, default=None, help="the balance's maximum load in grams (default: the balance's)"
    )
    s.add_argument("--channel", type=int, default=0, help="the pan: 0 for pan A, 1 for pan B")
    s.add_argument("--step-timeout", type=float, default=120.0, help="seconds each load may take to settle")
    s.add_argument(
        "--out", type=Path, default=None, help="folder for the profile, session log and plot (default: the data folder)"
    )
    s.add_argument("--no-eeprom", action="store_true", help="do not store the calibration in the balance")
    s.add_argument("--json", action="store_true", help="print the profile as JSON at the end")
    s.set_defaults(func=run_calibrate)


def _out(text: str) -> None:
    """A line of the command's output."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _err(text: str) -> None:
    """A line for the person at the keyboard (progress, notes), apart from the output."""
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def _open(url: str) -> Any:
    from companion.scale import open_scale

    scale = open_scale(url)
    status = scale.status()
    if status.simulated and status.message and url.startswith("auto"):
        _err(f"!! {status.message}")
    return scale


def _decimals(interval_g: float) -> int:
    return max(0, -math.floor(math.log10(interval_g) + 1e-9)) if interval_g > 0 else 3


def run_watch(args: argparse.Namespace) -> int:
    """Print readings until interrupted (or ``--count``); while the balance is unplugged,
    say "waiting for the balance on PORT" and carry on when it is back."""
    from companion.scale.base import Waiting

    with _open(args.url) as scale:
        if args.channel is not None:
            scale.calibration(args.channel)  # refuses a pan the balance does not have
        shown = 0
        said: tuple[str, float] | None = None
        for item in scale.watch(notice_s=1.0):
            if isinstance(item, Waiting):
                now = scale.now()
                if said is None or said[0] != item.message or now - said[1] >= WAITING_REPEAT_S:
                    said = (item.message, now)
                    if args.json:
                        print_json({"waiting": True, "message": item.message})
                    else:
                        _out(f"-- {item.message}")
                continue
            if said is not None:
                if not args.json:
                    _out("-- the balance is back")
                said = None
            s = item.sample
            if args.channel is not None and s.channel != args.channel:
                continue
            if args.json:
                print_json(item.to_json())
            elif item.net_g is None:
                _out(f"pan {pan_name(s.channel)}        ----    {item.message or item.reason}")
            else:
                d = _decimals(scale.calibration(s.channel).interval_g)
                flag = "stable" if item.stable else item.reason
                _out(f"pan {pan_name(s.channel)}  {item.net_g + 0.0:10.{d}f} g  raw {s.raw:9d}  {flag}")
            shown += 1
            if args.count and shown >= args.count:
                break
    return 0


def _other_pans(scale: Any, channel: int) -> list[str]:
    """What is wrong with the balance's other pans, for a note beside a weight (each pan is
    given up to a second to report)."""
    status = scale.survey(1.0)
    return [p.message for p in getattr(status, "pans", ()) if p.channel != channel and p.message]


def run_weigh(args: argparse.Namespace) -> int:
    """One stable weighing; a clear error and a non-zero exit when none comes in time."""
    with _open(args.url) as scale:
        w = scale.weigh_stable(timeout=args.timeout, channel=args.channel)
        cal = scale.calibration(w.channel)
        notes = _other_pans(scale, w.channel)
        if not getattr(w, "verified", True):
            notes.append(
                f"pan {pan_name(w.channel)}: {w.grams:.1f} g is above the heaviest load its calibration "
                "was checked with "
                f"({cal.verified_max_g:g} g); the uncertainty allows for that"
            )
        if args.json:
            print_json(
                {
                    "grams": round(w.grams, 4),
                    "uncertainty_g": round(w.uncertainty_g, 4),
                    "samples": w.samples,
                    "channel": w.channel,
                    "pan": pan_name(w.channel),
                    "calibration": w.calibration,
                    "noise_g": round(getattr(w, "noise_g", 0.0), 5),
                    "verified": getattr(w, "verified", True),
                    "notes": notes,
                }
            )
        else:
            d = _decimals(cal.interval_g)
            _out(
                f"{round(w.grams, d) + 0.0:.{d}f} g  (+- {w.uncertainty_g:.{d + 1}f} g, pan {pan_name(w.channel)}, "
                f"{w.samples} readings, calibration {w.calibration})"
            )
            for note in notes:
                _err(f"note: {note}")
    return 0


def run_tare(args: argparse.Namespace) -> int:
    """Zero the pan on its present load."""
    with _open(args.url) as scale:
        scale.tare(channel=args.channel, timeout=args.timeout)
        kept = " (kept for the next run)" if getattr(scale, "persist_zero", False) else ""
        _out(f"pan {pan_name(args.channel)} zeroed{kept}")
    return 0


def _listen(scale: Any, seconds: float) -> None:
    """Read for ``seconds`` (the scale's clock) so each pan measures its noise at rest."""
    if seconds <= 0:
        return
    end = scale.now() + seconds
    for _ in scale.watch(notice_s=min(1.0, seconds)):
        if scale.now() >= end:
            return


def run_info(args: argparse.Namespace) -> int:
    """Describe the balance: what it is, each pan's calibration, noise and state."""
    with _open(args.url) as scale:
        _listen(scale, args.listen)
        info = scale.info()
        status = scale.status()
        info["status"] = {
            "connected": status.connected,
            "simulated": status.simulated,
            "chip_fault": status.chip_fault,
            "saturated": status.saturated,
            "waiting": status.waiting,
            "message": status.message,
        }
        if args.json:
            print_json(info)
            return 0
        _out(f"balance   {info.get('device_id') or '?'} ({info.get('backend', '')}) at {info.get('url')}")
        for key in ("port", "firmware", "protocol", "rate_sps", "channels"):
            if key in info:
                _out(f"{key:<9} {info[key]}")
        pans = {p["channel"]: p for p in info.get("pans", [])}
        for cal in info.get("calibrations", []):
            ch = cal["channel"]
            verified = cal.get("verified_max_g")
            checked = "" if verified is None else f", verified up to {verified:g} g"
            _out(
                f"pan {pan_name(ch)}     calibration {cal['id']} ({cal['source']}): "
                f"{cal['counts_per_gram']:.4f} counts/g, "
                f"e = {cal['interval_g']:g} g, Max = {cal['capacity_g']:g} g, fit error {cal['sigma_g']:.4f} g{checked}"
            )
            pan = pans.get(ch)
            if pan is None:
                continue
            how = "measured at rest" if pan["noise_measured"] else "HX711 datasheet figure, not yet measured"
            if pan["working"]:
                _out(
                    f"          noise {pan['noise_g']:.4f} g rms ({pan['noise_ratio']:.1f}x the datasheet, {how}); "
                    f"averages {pan['averaging']} readings, motion band +-{pan['band_g']:.3f} g; {pan['state']}"
                )
            else:
                _out(f"          cannot weigh: {pan['message'] or pan['state']}")
            if pan["wiring"]:
                _out("          wired " + ", ".join(f"{k.upper()} {v}" for k, v in pan["wiring"].items()))
        if status.message:
            _out(f"status    {status.message}")
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


def _instructor(scale: Any, args: argparse.Namespace) -> Any:
    from companion.scale.calprocedure import LoadStep, sim_instructor, simulator_of

    sim = simulator_of(scale)
    if sim is not None:
        placer = sim_instructor(sim, args.channel)

        def instruct_sim(step: LoadStep, index: int, total: int) -> None:
            _err(f"load {index + 1}/{total}: the simulator does it: {step.words()}")
            placer(step, index, total)

        return instruct_sim

    def instruct(step: LoadStep, index: int, total: int) -> None:
        what = step.words()
        if args.yes:
            _err(f"load {index + 1}/{total}: {what}; waiting for it to settle")
            return
        try:
            input(f"load {index + 1}/{total}: {what}, then press Enter ")
        except EOFError as exc:
            raise ScaleError("calibration needs someone at the keyboard (or --yes)") from exc

    return instruct


def _plan(args: argparse.Namespace, scale: Any) -> Any:
    from companion.scale.calprocedure import Plan, masses_with_tolerances, simulator_of

    fit = masses_with_tolerances(args.masses)
    checks = masses_with_tolerances(args.check, "--check")
    current = scale.calibration(args.channel)
    mass_class = args.mass_class or ("exact" if simulator_of(scale) is not None else "M3")
    return Plan(
        masses=tuple(m for m, _ in fit),
        checks=tuple(m for m, _ in checks),
        tolerances=tuple((m, t) for m, t in [*fit, *checks] if t is not None),
        mass_class=mass_class,
        interval_g=args.interval or current.interval_g,
        capacity_g=args.capacity or current.capacity_g,
        repeats=args.repeats,
        channel=args.channel,
        step_timeout_s=args.step_timeout,
        corner=not args.no_corner,
        corner_mass_g=args.corner_mass,
        creep_s=args.creep,
    )


def run_calibrate(args: argparse.Namespace) -> int:
    """Run the calibration procedure, save the profile, session log and plot."""
    from companion.scale.calprocedure import calibrate, keep_calibration, masses_with_tolerances

    masses_with_tolerances(args.masses)  # a bad list is refused before the balance is opened
    masses_with_tolerances(args.check, "--check")
    with _open(args.url) as scale:
        plan = _plan(args, scale)
        checks = f"; checked with {', '.join(f'{m:g} g' for m in plan.checks)}" if plan.checks else ""
        _err(
            f"Calibrating pan {pan_name(args.channel)} of {scale.device_id or scale.url} with "
            f"{', '.join(f'{m:g} g' for m in plan.masses)}, {plan.repeats} cycle(s){checks}; "
            f"reference masses of class {plan.mass_class}"
        )
        session, profile = calibrate(
            scale, plan, lambda *_: None, _progress_printer(sys.stderr), instruct=_instructor(scale, args)
        )
        kept = keep_calibration(scale, plan, session, profile, args.out, in_balance=not args.no_eeprom)
    for note in kept.notes:
        _err(note)
    cal = profile.calibration
    report = profile.report
    if args.json:
        print_json(profile.to_json())
        return 0
    _out(f"calibration {cal.id}: {cal.counts_per_gram:.4f} counts/g, zero at {cal.zero_counts:.1f} counts")
    for point, residual in zip(report["points"], report["residuals_g"], strict=True):
        _out(f"  fit    {point['mass_g']:8g} g  error {residual:+.4f} g  ({point['n']} readings)")
    for check in report["checks"]:
        _out(
            f"  check  {check['mass_g']:8g} g  error {check['error_g']:+.4f} g  (+- {2 * check['u_g']:.4f} g expected)"
        )
    _out(
        f"fit error {cal.sigma_g:.4f} g, linearity {report['linearity_pct']:.4f} % of capacity, "
        f"slope known to {1e6 * report['slope_u_rel']:.0f} ppm (reference masses included)"
    )
    for rep in report["repeatability"]:
        _out(f"  repeatability at {rep['mass_g']:g} g: spread {rep['spread_g']:.4f} g")
    if report["corner"]:
        corner = report["corner"]
        _out(f"off-centre: worst {corner['worst_g']:.4f} g with {corner['mass_g']:g} g on a corner")
    if report["creep"]:
        creep = report["creep"]
        _out(f"creep: {creep['change_g']:+.4f} g in {creep['hold_s']:g} s with {creep['mass_g']:g} g")
    verdict = report["verdict"]
    _out(report["statement"])
    if not verdict["passed"]:
        _out(f"no OIML R76 class III claim at e = {plan.interval_g:g} g:")
        for failure in verdict["failures"]:
            _out(f"  - {failure}")
    _out(f"saved {kept.profile}\nsession log {kept.session}\nplot {kept.plot or '(not drawn)'}")
    _out(
        "stored in the balance too"
        if kept.in_balance
        else "(the balance keeps no calibration of its own: Purser's profile is used)"
    )
    return 0
