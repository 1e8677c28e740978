#include "channels.h"

#include <Arduino.h>

#include "config.h"
#include "hx711.h"
#include "link.h"
#include "protocol.h"
#include "settings.h"

#define NO_RESULT 0xFF
#define POWERED_DOWN_REPORT_MS 1000

struct Channel {
    Hx711 chip;
    uint32_t last_conversion; /* ms: last reading, or when the channel (re)started */
    uint32_t last_status;     /* ms: last no-chip / powered-down line */
    uint32_t settle_until;    /* ms: readings before this are flagged SETTLING */
    uint32_t retry_at;        /* ms: after a read with DOUT stuck low, wait a period */
    bool backing_off;
    bool settle_next;         /* the next reading opens a settling window */
    bool settling;
    bool no_chip;
    bool dout_low;            /* the last look found DOUT held low after a read */
    uint8_t pace;             /* 10 or 80: the rate the chip is seen converting at */
    uint8_t pace_votes;       /* intervals in a row that fit the other rate */
    bool pace_seen;           /* pace confirmed by readings since the rate was set */
    uint8_t tare_left;
    uint8_t tare_samples;
    int32_t tare_sum;
    uint8_t tare_result;
};

static Channel chan[PURSER_MAX_CHANNELS];
static uint16_t seq;
static bool powered = true;
static uint8_t rate_driven; /* the rate the channels were last set to expect (0: none yet) */
bool streaming = true;

static const uint8_t dout_pins[2] = {PURSER_CH0_DOUT_PIN, PURSER_CH1_DOUT_PIN};
static const uint8_t sck_pins[2] = {PURSER_CH0_SCK_PIN, PURSER_CH1_SCK_PIN};

/* Datasheet timings: a conversion every 100 / 12.5 ms; output settles 400 / 50 ms after
 * power-up, reset, or a change of gain, input or rate. They are taken from the pace the
 * chip is seen to keep, not from the rate asked for: a board may strap its RATE input
 * whatever the RATE pin says, and 80 SPS timings on a 10 SPS chip would call every
 * conversion a gap (and flag it SETTLING) for good. */
static uint16_t settle_ms(const Channel &ch) { return ch.pace == 80 ? 50 : 400; }
static uint16_t period_ms(const Channel &ch) { return ch.pace == 80 ? 13 : 100; }
/* More than 2.5 periods without a conversion: the chip was reset (a power glitch). */
static uint16_t gap_ms(const Channel &ch) { return ch.pace == 80 ? 32 : 250; }
/* Settling plus three periods without one: the chip is missing or unplugged. Until the
 * pace is confirmed, the slow rate's, so a strapped 10 SPS chip is not called missing. */
static uint16_t timeout_ms(const Channel &ch) { return ch.pace == 80 && ch.pace_seen ? 100 : 700; }

/* Conversion intervals (ms) that can only come from a chip at 80 / at 10 SPS (the
 * internal oscillator may be some way off 10 or 80; a gap fits neither). */
#define FAST_MAX_MS 40
#define SLOW_MIN_MS 60
#define SLOW_MAX_MS 160
/* Intervals in a row that must fit the other rate before the pace changes. */
#define PACE_VOTES 2

static void restart(Channel &ch, uint32_t now)
{
    ch.last_conversion = now;
    ch.settle_next = true;
}

/* Follow the chip's real pace from the interval since its last reading (ms). A change
 * re-opens the settling window with the settling time of the rate now seen. */
static void track_pace(Channel &ch, uint32_t interval, uint32_t now)
{
    uint8_t seen;
    if (interval <= FAST_MAX_MS)
        seen = 80;
    else if (interval >= SLOW_MIN_MS && interval <= SLOW_MAX_MS)
        seen = 10;
    else
        return;
    if (seen == ch.pace) {
        ch.pace_votes = 0;
        ch.pace_seen = true;
        return;
    }
    if (++ch.pace_votes < PACE_VOTES)
        return;
    ch.pace = seen;
    ch.pace_votes = 0;
    ch.pace_seen = true;
    ch.settle_until = now + settle_ms(ch);
    ch.settling = true;
}

void channels_begin(uint32_t now)
{
    uint8_t c;
    for (c = 0; c < PURSER_MAX_CHANNELS; c++) {
        hx711_begin(chan[c].chip, dout_pins[c], sck_pins[c]);
        chan[c].tare_result = NO_RESULT;
        chan[c].last_status = now;
    }
    channels_apply_settings(now);
}

void channels_apply_settings(uint32_t now)
{
    uint8_t c;
#if PURSER_RATE_PIN >= 0
    pinMode(PURSER_RATE_PIN, OUTPUT);
    digitalWrite(PURSER_RATE_PIN, settings.rate == 80 ? HIGH : LOW);
#endif
    for (c = 0; c < PURSER_MAX_CHANNELS; c++) {
        if (hx711_gain(chan[c].chip) != settings.ch[c].gain)
            hx711_set_gain(chan[c].chip, settings.ch[c].gain);
        /* A new rate on the pin: expect it, until the readings tell otherwise. */
        if (settings.rate != rate_driven) {
            chan[c].pace = settings.rate;
            chan[c].pace_seen = false;
            chan[c].pace_votes = 0;
        }
        /* Any change of rate or gain unsettles the output: start afresh. */
        restart(chan[c], now);
    }
    rate_driven = settings.rate;
}

static uint16_t channel_flags(uint8_t c)
{
    uint16_t flags = 0;
    if (settings.ch[c].factor_mantissa == 0)
        flags |= PB_FLAG_UNCALIBRATED;
    if (settings_state != PB_SETTINGS_OK)
        flags |= PB_FLAG_DEFAULTS;
    if (chan[c].tare_left)
        flags |= PB_FLAG_TARING;
    return flags;
}

static void send_data(uint8_t c, uint32_t now, bool has_raw, int32_t raw, uint16_t flags)
{
    pb_line line;
    bool has_grams;
    if (!streaming)
        return;
    has_grams = has_raw && !(flags & (PB_FLAG_SATURATED | PB_FLAG_UNCALIBRATED));
    pb_format_data(&line, seq++, now, c, has_raw, raw, has_grams,
                   has_grams ? pb_milligrams(raw, settings.ch[c].offset, settings_factor(c)) : 0, flags);
    link_send(line, false);
}

static void end_tare(Channel &ch, uint8_t result)
{
    ch.tare_left = 0;
    ch.tare_result = result;
}

static void tare_step(uint8_t c, int32_t raw, uint16_t flags)
{
    Channel &ch = chan[c];
    int32_t n = ch.tare_samples, sum;
    if (!ch.tare_left || (flags & PB_FLAG_SETTLING))
        return;
    if (flags & PB_FLAG_SATURATED) {
        end_tare(ch, PB_ERR_SATURATED);
        return;
    }
    ch.tare_sum += raw;
    if (--ch.tare_left)
        return;
    sum = ch.tare_sum; /* 64 readings of 24 bits fit in 31 */
    settings.ch[c].offset = sum >= 0 ? (sum + n / 2) / n : -((-sum + n / 2) / n);
    settings_save();
    end_tare(ch, PB_OK);
}

static void read_conversion(uint8_t c, uint32_t now)
{
    Channel &ch = chan[c];
    bool still_low;
    uint16_t flags;
    int32_t raw = hx711_read(ch.chip, &still_low);
    if (still_low) {
        /* DOUT stuck low: not a chip talking (the timeout reports it). Try again a
         * conversion period later rather than clocking zeros out every millisecond. */
        ch.retry_at = now + period_ms(ch);
        ch.backing_off = true;
        ch.dout_low = true;
        return;
    }
    ch.dout_low = false;

    /* The interval since the last reading says how fast the chip converts (not after a
     * restart or a NO_CHIP spell: no reading came before this one then). */
    if (!ch.no_chip && !ch.settle_next)
        track_pace(ch, now - ch.last_conversion, now);
    if (ch.no_chip || ch.settle_next || (uint32_t)(now - ch.last_conversion) > gap_ms(ch)) {
        ch.settle_until = now + settle_ms(ch);
        ch.settling = true;
        ch.settle_next = false;
    }
    ch.no_chip = false;
    ch.last_conversion = now;

    flags = channel_flags(c);
    if (ch.settling) {
        if ((int32_t)(now - ch.settle_until) < 0)
            flags |= PB_FLAG_SETTLING;
        else
            ch.settling = false;
    }
    if (raw == PB_RAW_MAX || raw == PB_RAW_MIN)
        flags |= PB_FLAG_SATURATED;
    send_data(c, now, true, raw, flags);
    tare_step(c, raw, flags);
}

void channels_poll(uint32_t now)
{
    uint8_t c;
    for (c = 0; c < settings.channels && c < PURSER_MAX_CHANNELS; c++) {
        Channel &ch = chan[c];
        if (!powered) {
            if ((uint32_t)(now - ch.last_status) >= POWERED_DOWN_REPORT_MS) {
                ch.last_status = now;
                send_data(c, now, false, 0, channel_flags(c) | PB_FLAG_POWERED_DOWN);
            }
            continue;
        }
        if (ch.backing_off && (int32_t)(now - ch.retry_at) >= 0)
            ch.backing_off = false;
        if (!ch.backing_off) {
            if (hx711_ready(ch.chip)) {
                read_conversion(c, now);
                continue;
            }
            ch.dout_low = false; /* DOUT high: no chip, or one that is not converting */
        }
        if ((uint32_t)(now - ch.last_conversion) <= timeout_ms(ch))
            continue;
        if (!ch.no_chip) {
            ch.no_chip = true;
            ch.last_status = now - timeout_ms(ch); /* report at once */
            if (ch.tare_left)
                end_tare(ch, PB_ERR_NO_CHIP);
        }
        if ((uint32_t)(now - ch.last_status) >= timeout_ms(ch)) {
            ch.last_status = now;
            send_data(c, now, false, 0,
                      channel_flags(c) | PB_FLAG_NO_CHIP | (ch.dout_low ? PB_FLAG_DOUT_LOW : 0));
        }
    }
}

void channels_power(bool on, uint32_t now)
{
    uint8_t c;
    if (on == powered)
        return;
    powered = on;
    for (c = 0; c < PURSER_MAX_CHANNELS; c++) {
        hx711_power(chan[c].chip, on);
        if (!on && chan[c].tare_left)
            end_tare(chan[c], PB_ERR_NO_CHIP);
        chan[c].no_chip = false;
        chan[c].last_status = now;
        /* Power-up resets the chip to A/128: the first reading after it is at that gain,
         * and flagged settling like every reading of the settling time. */
        restart(chan[c], now);
    }
}

bool channels_powered(void) { return powered; }

bool channels_no_chip(uint8_t c) { return chan[c].no_chip; }

bool channels_any_fault(void)
{
    uint8_t c;
    for (c = 0; c < settings.channels && c < PURSER_MAX_CHANNELS; c++)
        if (chan[c].no_chip)
            return true;
    return false;
}

uint8_t channels_start_tare(uint8_t c, uint8_t samples)
{
    Channel &ch = chan[c];
    if (!powered || ch.no_chip)
        return PB_ERR_NO_CHIP;
    if (ch.tare_left || ch.tare_result != NO_RESULT)
        return PB_ERR_BUSY;
    ch.tare_samples = samples;
    ch.tare_left = samples;
    ch.tare_sum = 0;
    return PB_OK;
}

bool channels_taring(uint8_t c) { return chan[c].tare_left != 0; }

bool channels_any_taring(void)
{
    uint8_t c;
    for (c = 0; c < PURSER_MAX_CHANNELS; c++)
        if (chan[c].tare_left)
            return true;
    return false;
}

bool channels_tare_result(uint8_t c, uint8_t *code)
{
    if (chan[c].tare_result == NO_RESULT)
        return false;
    *code = chan[c].tare_result;
    chan[c].tare_result = NO_RESULT;
    return true;
}
