#include "commands.h"

#include <Arduino.h>
#include <avr/wdt.h>
#include <string.h>

#include "balance.h"
#include "channels.h"
#include "config.h"
#include "link.h"
#include "protocol.h"
#include "settings.h"
#include "version.h"


static struct {
    bool waiting;
    uint8_t cmd;
    uint8_t channel;
} pending;
static bool tare_waiting[PURSER_MAX_CHANNELS];

static void send_reply(const pb_line &line)
{
    link_send(line, true);
}

static void reply_error(uint8_t code, uint8_t cmd)
{
    pb_line line;
    pb_format_error(&line, code, cmd);
    send_reply(line);
}

static void reply_calibration(uint8_t cmd, uint8_t c)
{
    pb_line line;
    pb_format_calibration(&line, cmd, c, settings.ch[c].offset, settings_factor(c), settings.ch[c].cal_id);
    send_reply(line);
}

static void reply_values(uint8_t cmd, int32_t a, int32_t b, uint8_t count)
{
    pb_line line;
    pb_begin_ok(&line, cmd);
    if (count > 0)
        pb_field_int(&line, a);
    if (count > 1)
        pb_field_int(&line, b);
    pb_line_end(&line);
    send_reply(line);
}

static void reply_text(uint8_t cmd, const char *text)
{
    pb_line line;
    pb_begin_ok(&line, cmd);
    if (text && *text)
        pb_field_str(&line, text);
    pb_line_end(&line);
    send_reply(line);
}

/* The reply to a command whose change is now stored. */
static void reply_stored(uint8_t cmd, uint8_t c)
{
    switch (cmd) {
    case PB_CMD_ID: reply_text(cmd, device_id); break;
    case PB_CMD_CHANNELS: reply_values(cmd, settings.channels, 0, 1); break;
    case PB_CMD_RATE: reply_values(cmd, settings.rate, 0, 1); break;
    case PB_CMD_GAIN: reply_values(cmd, c, settings.ch[c].gain, 2); break;
    case PB_CMD_CAL: reply_calibration(cmd, c); break;
    default: reply_text(cmd, nullptr); break;
    }
}

static void wait_for_save(uint8_t cmd, uint8_t c)
{
    pending.waiting = true;
    pending.cmd = cmd;
    pending.channel = c;
}

bool commands_busy(void)
{
    return pending.waiting;
}

static void restart_board(void)
{
    link_flush();
    reset_marker = PURSER_RESET_MARKER;
    /* 2 s, not less: the old Nano bootloader keeps the watchdog running and would
     * otherwise be reset again before it hands over to this sketch. */
    wdt_enable(WDTO_2S);
    for (;;) {
    }
}

static uint8_t execute(const pb_command &c, uint32_t now)
{
    pb_line line;
    uint8_t err;
    switch (c.cmd) {
    case PB_CMD_PING:
        reply_text(c.cmd, c.text);
        return PB_OK;
    case PB_CMD_INFO:
        pb_format_info(&line, PURSER_FIRMWARE_VERSION, device_id, settings.channels, settings.rate,
                       settings_state, streaming, channels_powered());
        send_reply(line);
        return PB_OK;
    case PB_CMD_ID:
        if (!c.set) {
            reply_text(c.cmd, device_id);
            return PB_OK;
        }
        strcpy(device_id, c.text);
        settings_save_id();
        wait_for_save(c.cmd, 0);
        return PB_OK;
    case PB_CMD_CHANNELS:
        if (!c.set) {
            reply_values(c.cmd, settings.channels, 0, 1);
            return PB_OK;
        }
        if (c.value > PURSER_MAX_CHANNELS)
            return PB_ERR_RANGE;
        if (channels_any_taring())
            return PB_ERR_BUSY;
        settings.channels = (uint8_t)c.value;
        channels_apply_settings(now);
        settings_save();
        wait_for_save(c.cmd, 0);
        return PB_OK;
    case PB_CMD_STREAM:
        if (c.set)
            streaming = c.value != 0;
        reply_values(c.cmd, streaming, 0, 1);
        return PB_OK;
    case PB_CMD_RATE:
        if (!c.set) {
            reply_values(c.cmd, settings.rate, 0, 1);
            return PB_OK;
        }
        if (PURSER_RATE_PIN < 0)
            return PB_ERR_UNSUPPORTED;
        if (channels_any_taring())
            return PB_ERR_BUSY;
        settings.rate = (uint8_t)c.value;
        channels_apply_settings(now);
        settings_save();
        wait_for_save(c.cmd, 0);
        return PB_OK;
    case PB_CMD_GAIN:
        if (!c.set) {
            reply_values(c.cmd, c.channel, settings.ch[c.channel].gain, 2);
            return PB_OK;
        }
        if (channels_taring(c.channel))
            return PB_ERR_BUSY;
        if (settings.ch[c.channel].gain != c.value) {
            /* Counts per gram change with the gain: the old calibration would lie. */
            settings.ch[c.channel].gain = (uint8_t)c.value;
            settings.ch[c.channel].factor_mantissa = 0;
            settings.ch[c.channel].factor_decimals = 0;
            settings.ch[c.channel].cal_id[0] = 0;
            channels_apply_settings(now);
        }
        settings_save();
        wait_for_save(c.cmd, c.channel);
        return PB_OK;
    case PB_CMD_POWER:
        if (c.set)
            channels_power(c.value != 0, now);
        reply_values(c.cmd, channels_powered(), 0, 1);
        return PB_OK;
    case PB_CMD_TARE:
        err = channels_start_tare(c.channel, (uint8_t)c.value);
        return err; /* the reply comes when the tare ends */
    case PB_CMD_CAL:
        if (!c.set) {
            reply_calibration(c.cmd, c.channel);
            return PB_OK;
        }
        if (channels_taring(c.channel))
            return PB_ERR_BUSY;
        settings.ch[c.channel].offset = c.offset;
        settings.ch[c.channel].factor_mantissa = c.factor.mantissa;
        settings.ch[c.channel].factor_decimals = c.factor.decimals;
        memset(settings.ch[c.channel].cal_id, 0, sizeof settings.ch[c.channel].cal_id);
        if (c.factor.mantissa)
            strncpy(settings.ch[c.channel].cal_id, c.text, PB_CAL_ID_MAX);
        settings_save();
        wait_for_save(c.cmd, c.channel);
        return PB_OK;
    case PB_CMD_DEFAULTS:
        if (channels_any_taring())
            return PB_ERR_BUSY;
        settings_defaults();
        channels_apply_settings(now);
        settings_save();
        wait_for_save(c.cmd, 0);
        return PB_OK;
    case PB_CMD_RESET:
        reply_text(c.cmd, nullptr);
        restart_board();
        return PB_OK;
    case PB_CMD_WIRING:
        pb_format_wiring(&line, c.channel, c.channel ? PURSER_CH1_DOUT_PIN : PURSER_CH0_DOUT_PIN,
                         c.channel ? PURSER_CH1_SCK_PIN : PURSER_CH0_SCK_PIN, PURSER_RATE_PIN);
        send_reply(line);
        return PB_OK;
    default:
        return PB_ERR_UNKNOWN;
    }
}

void commands_handle(const char *text, uint8_t len, bool too_long, uint32_t now)
{
    pb_command c;
    uint8_t err;
    if (too_long) {
        reply_error(PB_ERR_TOO_LONG, PB_CMD_NONE);
        return;
    }
    err = pb_parse_command(text, len, settings.channels, &c);
    if (err == PB_OK && c.cmd != PB_CMD_NONE)
        err = execute(c, now);
    if (err != PB_OK)
        reply_error(err, c.cmd);
}

void commands_saved(uint8_t save_result)
{
    uint8_t c;
    if (save_result != SAVE_DONE && save_result != SAVE_FAILED)
        return;
    if (pending.waiting) {
        pending.waiting = false;
        if (save_result == SAVE_DONE)
            reply_stored(pending.cmd, pending.channel);
        else
            reply_error(PB_ERR_EEPROM, pending.cmd);
    }
    for (c = 0; c < PURSER_MAX_CHANNELS; c++) {
        if (!tare_waiting[c])
            continue;
        tare_waiting[c] = false;
        if (save_result == SAVE_DONE)
            reply_calibration(PB_CMD_TARE, c);
        else
            reply_error(PB_ERR_EEPROM, PB_CMD_TARE);
    }
}

void commands_poll_tares(void)
{
    uint8_t c, code;
    for (c = 0; c < PURSER_MAX_CHANNELS; c++) {
        if (!channels_tare_result(c, &code))
            continue;
        if (code == PB_OK)
            tare_waiting[c] = true; /* answered when the new offset is saved */
        else
            reply_error(code, PB_CMD_TARE);
    }
}
