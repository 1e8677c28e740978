"""The balance in words for the tablet: each pan's state, noise and wiring, the balance
and its calibrations (what ``purser scale info`` prints), the live reading, why a weighing
failed (one calm line, with the longer what-to-check apart), and a calibration's result.

Nothing here talks to the balance: it renders what the driver reported (``PanStatus``
and ``info()`` as JSON-ready dicts, the driver's own ``Diagnosis``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.pans import pan_name

if TYPE_CHECKING:  # the driver (and numpy) is imported only once a balance opens
    from companion.scale.noise import Diagnosis

#: A pan's state (``PanStatus.state``) in a word or two.
PAN_STATE_WORDS = {
    "ok": "steady",
    "unstable": "settling",
    "no_readings": "no readings yet",
    "no_amplifier": "cannot weigh",
    "dout_low": "cannot weigh",
    "powered_down": "cannot weigh",
    "saturated": "cannot weigh",
    "overloaded": "overloaded",
    "disconnected": "waiting for the balance",
}


def sentence(text: str) -> str:
    """``text`` with a capital first letter and a full stop."""
    text = text.strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def grams_text(grams: float | None) -> str:
    """A live reading: "123.4 g" (never "-0.0 g"), or "waiting..." while there is none yet."""
    if grams is None:
        return "waiting..."
    shown = round(grams, 1)
    return f"{0.0 if shown == 0 else shown:,.1f} g"


def live_text(state: str, grams: float | None) -> str:
    """What the big live box shows for the balance in ``state`` (see ``HardwareService``)."""
    if state == "ready":
        return grams_text(grams)
    return {"waiting": "waiting...", "fault": "no weight", "opening": "looking...", "off": "..."}.get(state, "no scale")


def without_pan(message: str, channel: int) -> str:
    """A pan's message without its leading "pan B: " (the row already names the pan)."""
    prefix = f"pan {pan_name(channel)}: "
    return message[len(prefix) :] if message.lower().startswith(prefix.lower()) else message


def noisy(pan: Mapping[str, Any]) -> bool:
    """True when the driver says a working pan's measured noise is worth a word to the maker."""
    return bool(pan.get("noisy"))


def noise_text(pan: Mapping[str, Any], rate_sps: int | None = None) -> str:
    """ "noise +-0.0156 g rms, 0.9x the HX711 datasheet (measured at rest)"."""
    how = "measured at rest" if pan.get("noise_measured") else "datasheet figure, not measured yet"
    at = f" at {rate_sps} SPS" if rate_sps else ""
    return f"noise ±{pan.get('noise_g', 0.0):.4f} g rms, {pan.get('noise_ratio', 0.0):.1f}× the HX711's{at} ({how})"


def wiring_text(wiring: Mapping[str, str]) -> str:
    """ "DOUT D2, SCK D3" (empty when the balance does not say)."""
    return ", ".join(f"{k.upper()} {v}" for k, v in wiring.items())


def pan_headline(pan: Mapping[str, Any]) -> str:
    """ "Pan A: steady" / "Pan B: cannot weigh" / "Pan A: steady, noisy"."""
    state = PAN_STATE_WORDS.get(str(pan.get("state")), str(pan.get("state", "")).replace("_", " "))
    return f"Pan {pan_name(int(pan.get('channel', 0)))}: {state}" + (", noisy" if noisy(pan) else "")


def pan_details(pan: Mapping[str, Any], rate_sps: int | None = None) -> str:
    """What ``purser scale info`` says of a pan: its noise against the datasheet, how many
    readings it averages and its motion band, or why it cannot weigh; and its pins."""
    channel = int(pan.get("channel", 0))
    lines = []
    if pan.get("working", True) or pan.get("state") == "disconnected":
        lines.append(
            sentence(
                f"{noise_text(pan, rate_sps)}; averages {pan.get('averaging', 0)} readings, "
                f"motion band ±{pan.get('band_g', 0.0):.3f} g"
            )
        )
        if noisy(pan):
            lines.append(f"It weighs, but noisily: {without_pan_noise_advice(str(pan.get('message', '')))}")
    elif pan.get("message"):
        lines.append(sentence(without_pan(str(pan["message"]), channel)))
    wired = wiring_text(pan.get("wiring") or {})
    if wired:
        lines.append(f"Wired to {wired}.")
    return " ".join(lines)


def without_pan_noise_advice(message: str) -> str:
    """The what-to-check part of the driver's "pan A is noisy (...): it weighs, ...; check ..."."""
    _, sep, advice = message.partition("; ")
    return sentence(advice) if sep else "check the wiring, its shielding and the USB power."


def pan_problem(pan: Mapping[str, Any]) -> str:
    """One line for a pan that cannot weigh ("Pan B cannot weigh: no amplifier answers -
    check DOUT on D4 ..."), empty for a working pan."""
    if pan.get("working", True) or pan.get("state") == "disconnected":
        return ""
    channel = int(pan.get("channel", 0))
    what = without_pan(str(pan.get("message") or PAN_STATE_WORDS.get(str(pan.get("state")), "")), channel)
    return sentence(f"Pan {pan_name(channel)} cannot weigh: {what}")


def calibration_line(cal: Mapping[str, Any]) -> str:
    """A pan's calibration as ``purser scale info`` gives it: id, source, counts per gram,
    interval, capacity, fit error and the load it was verified up to."""
    verified = cal.get("verified_max_g")
    checked = "" if verified is None else f", verified up to {verified:g} g"
    return (
        f"Calibration {cal.get('id', '?')} ({cal.get('source', '?')}): {cal.get('counts_per_gram', 0.0):.4f} counts/g, "
        f"e = {cal.get('interval_g', 0.0):g} g, Max = {cal.get('capacity_g', 0.0):g} g, "
        f"fit error {cal.get('sigma_g', 0.0):.4f} g{checked}"
    )


def balance_line(info: Mapping[str, Any]) -> str:
    """The balance as ``purser scale info`` names it: device, backend, address, port,
    firmware and protocol, rate, pans and link counters."""
    head = f"{info.get('device_id') or '?'} ({info.get('backend', '')}) at {info.get('url', '')}"
    parts = [head]
    if info.get("port"):
        parts.append(f"port {info['port']}")
    if info.get("firmware"):
        parts.append(
            f"firmware {info['firmware']}" + (f", protocol {info['protocol']}" if info.get("protocol") else "")
        )
    if info.get("rate_sps"):
        parts.append(f"{info['rate_sps']} readings a second")
    channels = int(info.get("channels", 1) or 1)
    parts.append(f"{channels} pan{'s' * (channels != 1)}")
    for key, words in (
        ("reconnects", "reconnected"),
        ("garbled_lines", "garbled lines"),
        ("mismatched_lines", "lines refused"),
    ):
        if info.get(key):
            parts.append(f"{words} {info[key]}" + (" times" if key == "reconnects" else ""))
    return "Balance " + "; ".join(parts)


@dataclass(frozen=True)
class Trouble:
    """Why the balance gave no weight: ``line`` for the message bar (one calm sentence), and
    ``advice``, the longer what-to-check shown on the screen; ``kind`` is "noise", "motion",
    "fault", "waiting" or "other"."""

    line: str
    advice: str
    kind: str


def weigh_trouble(
    error: str,
    *,
    timeout: bool,
    fault: bool,
    waiting: str,
    diagnosis: Diagnosis | None,
    channel: int,
    channels: int,
) -> Trouble:
    """Put a failed weighing or tare into words.

    ``error`` is the driver's message; ``timeout`` / ``fault`` what kind of failure it was;
    ``waiting`` the driver's "waiting for the balance on PORT" when it is unplugged (else
    empty); ``diagnosis`` the driver's noise-or-motion judgement of the pan, with its
    figures (None when it could not tell).
    """
    pan = f" on pan {pan_name(channel)}" if channels > 1 else ""
    if waiting:
        return Trouble(
            sentence(f"No weight: {waiting} - check its cable"),
            sentence(f"{waiting}. Purser carries on by itself when it is back; meanwhile type weights in by hand"),
            "waiting",
        )
    if fault:
        return Trouble(sentence(error), sentence(error), "fault")
    if timeout and diagnosis is not None:
        if diagnosis.kind == "noise":
            return Trouble(
                f"No steady weight{pan}: electrical noise (±{diagnosis.noise_g:.2f} g, "
                f"{diagnosis.ratio:.1f}× an HX711's), not motion.",
                sentence(diagnosis.words),
                "noise",
            )
        if diagnosis.kind == "motion":
            return Trouble(
                f"No steady weight{pan}: the load kept moving - keep hands and the table still.",
                sentence(diagnosis.words),
                "motion",
            )
        return Trouble(sentence(error), sentence(diagnosis.words), "other")
    return Trouble(sentence(error), "", "other")


def plan_text(steps: Sequence[Any]) -> str:
    """A calibration plan (``LoadStep`` list) in one paragraph: what will be asked, in order."""
    if not steps:
        return ""
    fit = [s for s in steps if s.kind == "fit" and s.mass_g]
    check = [s for s in steps if s.kind == "check" and s.mass_g]
    corner = [s for s in steps if s.kind == "corner"]
    creep = [s for s in steps if s.kind == "creep"]
    cycles = sum(1 for s in steps if s.kind == "fit" and not s.mass_g)
    parts = []
    if fit:
        masses = ", ".join(f"{m:g}" for m in dict.fromkeys(s.mass_g for s in fit))
        parts.append(f"the empty pan and {masses} g to fit" + (f", {_times(cycles)}" if cycles > 1 else ""))
    if check:
        masses = ", ".join(f"{m:g}" for m in dict.fromkeys(s.mass_g for s in check))
        parts.append(f"{masses} g to check the fit (not part of it)")
    if corner:
        parts.append(f"{corner[0].mass_g:g} g in the middle, then on each corner")
    if creep:
        parts.append(f"{creep[0].mass_g:g} g left on for {creep[0].hold_s:g} s (creep)")
    return f"{len(steps)} steps: " + "; ".join(parts) + "."


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def tolerance_text(pairs: Sequence[tuple[float, float]]) -> str:
    """ "100 g ±0.05 g, 200 g ±0.1 g" (exact masses: "exact")."""
    return ", ".join(f"{m:g} g " + (f"±{t:.4g} g" if t > 0 else "exact") for m, t in pairs)


def step_kind_text(kind: str) -> str:
    """What a calibration step is for, in a few words."""
    return {
        "fit": "fit",
        "check": "check (verifies the fit, not part of it)",
        "corner": "corner test",
        "creep": "creep test",
    }.get(kind, kind)


def report_lines(report: Mapping[str, Any], interval_g: float) -> list[str]:
    """A calibration's result as ``purser calibrate scale`` prints it, fit points and check
    loads apart, ending with what may be claimed and, without a class, why not."""
    lines = ["Fit points:"]
    for point, residual in zip(report.get("points", []), report.get("residuals_g", []), strict=False):
        lines.append(f"   {point['mass_g']:g} g: error {residual:+.4f} g ({point['n']} readings)")
    checks = report.get("checks", [])
    if checks:
        lines.append("Check loads (kept apart from the fit):")
        for check in checks:
            lines.append(
                f"   {check['mass_g']:g} g: error {check['error_g']:+.4f} g (±{2 * check['u_g']:.4f} g expected)"
            )
    lines.append(
        f"Fit error {report.get('sigma_g', 0.0):.4f} g, linearity {report.get('linearity_pct', 0.0):.4f} % "
        f"of capacity, slope known to {1e6 * report.get('slope_u_rel', 0.0):.0f} ppm "
        "(reference masses included)."
    )
    corner = report.get("corner") or {}
    if corner:
        lines.append(f"Off-centre: worst {corner['worst_g']:.4f} g with {corner['mass_g']:g} g on a corner.")
    creep = report.get("creep") or {}
    if creep:
        lines.append(f"Creep: {creep['change_g']:+.4f} g in {creep['hold_s']:g} s with {creep['mass_g']:g} g.")
    verdict = report.get("verdict") or {}
    if not verdict.get("passed"):
        lines.append(f"No OIML R76 class III claim at e = {interval_g:g} g:")
        lines += [f"   - {failure}" for failure in verdict.get("failures", [])]
    return lines


def statement_text(report: Mapping[str, Any]) -> str:
    """The one-line claim a calibration supports ("±0.02 g up to 20 g (95 %)")."""
    text = str(report.get("statement") or "").strip().replace("+-", "±")
    return text[0].upper() + text[1:] if text else "No claim: the calibration report says nothing."
