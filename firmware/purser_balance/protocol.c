/*
 * The balance's serial line protocol: see protocol.h and hardware.md.
 */
#include "protocol.h"

#include <string.h>

#ifdef __AVR__
#include <avr/pgmspace.h>
#define PB_READ_PTR(p) ((const char *)pgm_read_word(p))
#else
#define PROGMEM
#define pgm_read_byte(p) (*(const uint8_t *)(p))
#define PB_READ_PTR(p) (*(p))
#endif

/* ------------------------------------------------------------------ names and texts */

static const char n_none[] PROGMEM = "?";
static const char n_ping[] PROGMEM = "PING";
static const char n_info[] PROGMEM = "INFO";
static const char n_id[] PROGMEM = "ID";
static const char n_channels[] PROGMEM = "CHANNELS";
static const char n_stream[] PROGMEM = "STREAM";
static const char n_rate[] PROGMEM = "RATE";
static const char n_gain[] PROGMEM = "GAIN";
static const char n_power[] PROGMEM = "POWER";
static const char n_tare[] PROGMEM = "TARE";
static const char n_cal[] PROGMEM = "CAL";
static const char n_defaults[] PROGMEM = "DEFAULTS";
static const char n_reset[] PROGMEM = "RESET";
static const char n_wiring[] PROGMEM = "WIRING";

static const char *const command_names[PB_CMD_COUNT] PROGMEM = {
    n_none, n_ping, n_info, n_id, n_channels, n_stream, n_rate, n_gain, n_power,
    n_tare, n_cal, n_defaults, n_reset, n_wiring,
};

static const char e_none[] PROGMEM = "ok";
static const char e_unknown[] PROGMEM = "unknown command";
static const char e_syntax[] PROGMEM = "wrong arguments";
static const char e_range[] PROGMEM = "value out of range";
static const char e_checksum[] PROGMEM = "checksum mismatch";
static const char e_too_long[] PROGMEM = "line too long";
static const char e_busy[] PROGMEM = "tare already running";
static const char e_no_chip[] PROGMEM = "load cell amplifier not answering";
static const char e_saturated[] PROGMEM = "reading saturated";
static const char e_unsupported[] PROGMEM = "rate pin not wired";
static const char e_eeprom[] PROGMEM = "settings not saved";

static const char *const error_texts[PB_ERR_COUNT] PROGMEM = {
    e_none, e_unknown, e_syntax, e_range, e_checksum, e_too_long, e_busy, e_no_chip,
    e_saturated, e_unsupported, e_eeprom,
};

static const char s_ok[] PROGMEM = "ok";
static const char s_blank[] PROGMEM = "blank";
static const char s_bad[] PROGMEM = "bad";
static const char *const settings_names[] PROGMEM = {s_ok, s_blank, s_bad};

static const char r_power[] PROGMEM = "power";
static const char r_external[] PROGMEM = "external";
static const char r_brownout[] PROGMEM = "brownout";
static const char r_watchdog[] PROGMEM = "watchdog";
static const char r_command[] PROGMEM = "command";
static const char r_unknown[] PROGMEM = "unknown";
static const char *const reset_names[] PROGMEM = {
    r_power, r_external, r_brownout, r_watchdog, r_command, r_unknown,
};

const char *pb_command_name_P(uint8_t cmd)
{
    if (cmd >= PB_CMD_COUNT)
        cmd = PB_CMD_NONE;
    return PB_READ_PTR(&command_names[cmd]);
}

const char *pb_error_text_P(uint8_t code)
{
    if (code >= PB_ERR_COUNT)
        code = PB_ERR_UNKNOWN;
    return PB_READ_PTR(&error_texts[code]);
}

/* ------------------------------------------------------------------ CRC-16/CCITT-FALSE */

uint16_t pb_crc16_update(uint16_t crc, uint8_t byte)
{
    uint8_t i;
    crc ^= (uint16_t)byte << 8;
    for (i = 0; i < 8; i++)
        crc = (crc & 0x8000u) ? (uint16_t)((crc << 1) ^ 0x1021u) : (uint16_t)(crc << 1);
    return crc;
}

uint16_t pb_crc16(const char *data, uint8_t len)
{
    uint16_t crc = PB_CRC_INIT;
    while (len--)
        crc = pb_crc16_update(crc, (uint8_t)*data++);
    return crc;
}

/* ------------------------------------------------------------------ building lines */

static void put(pb_line *line, char c)
{
    if (line->len >= PB_LINE_MAX) {
        line->overflow = 1;
        return;
    }
    line->text[line->len++] = c;
    line->crc = pb_crc16_update(line->crc, (uint8_t)c);
}

static void separator(pb_line *line)
{
    put(line, ',');
}

void pb_line_begin(pb_line *line, const char *kind)
{
    line->len = 0;
    line->overflow = 0;
    line->text[line->len++] = '$';
    line->crc = PB_CRC_INIT;
    while (*kind)
        put(line, *kind++);
}

void pb_field_str(pb_line *line, const char *text)
{
    separator(line);
    if (!*text)
        put(line, '-');
    while (*text)
        put(line, *text++);
}

void pb_field_P(pb_line *line, const char *progmem_text)
{
    char c;
    separator(line);
    while ((c = (char)pgm_read_byte(progmem_text++)) != 0)
        put(line, c);
}

void pb_field_none(pb_line *line)
{
    separator(line);
    put(line, '-');
}

static const uint32_t powers_of_ten[10] PROGMEM = {
    1000000000UL, 100000000UL, 10000000UL, 1000000UL, 100000UL,
    10000UL, 1000UL, 100UL, 10UL, 1UL,
};

static uint32_t read_power(uint8_t i)
{
#ifdef __AVR__
    return pgm_read_dword(&powers_of_ten[i]);
#else
    return powers_of_ten[i];
#endif
}

/* Decimal digits of value; `width` > 0 pads with zeros to at least that many digits.
 * Subtracting powers of ten is much faster on the AVR than 32-bit division. */
static void put_uint(pb_line *line, uint32_t value, uint8_t width)
{
    uint8_t i, started = 0;
    for (i = 0; i < 10; i++) {
        uint32_t p = read_power(i);
        char digit = '0';
        while (value >= p) {
            value -= p;
            digit++;
        }
        if (digit != '0' || started || i == 9 || (width && 10 - i <= width)) {
            put(line, digit);
            started = 1;
        }
    }
}

static void put_uint64(pb_line *line, uint64_t value)
{
    char digits[20];
    uint8_t n = 0;
    if (value <= 0xFFFFFFFFULL) {
        put_uint(line, (uint32_t)value, 0);
        return;
    }
    while (value) {
        digits[n++] = (char)('0' + (uint8_t)(value % 10));
        value /= 10;
    }
    while (n)
        put(line, digits[--n]);
}

void pb_field_uint(pb_line *line, uint32_t value)
{
    separator(line);
    put_uint(line, value, 0);
}

void pb_field_int(pb_line *line, int32_t value)
{
    separator(line);
    if (value < 0) {
        put(line, '-');
        put_uint(line, (uint32_t)0 - (uint32_t)value, 0);
    } else {
        put_uint(line, (uint32_t)value, 0);
    }
}

void pb_field_hex16(pb_line *line, uint16_t value)
{
    static const char hex[] = "0123456789ABCDEF";
    separator(line);
    put(line, hex[(value >> 12) & 0xF]);
    put(line, hex[(value >> 8) & 0xF]);
    put(line, hex[(value >> 4) & 0xF]);
    put(line, hex[value & 0xF]);
}

void pb_field_milli(pb_line *line, int64_t thousandths)
{
    uint64_t magnitude;
    separator(line);
    if (thousandths < 0) {
        put(line, '-');
        magnitude = (uint64_t)0 - (uint64_t)thousandths;
    } else {
        magnitude = (uint64_t)thousandths;
    }
    put_uint64(line, magnitude / 1000);
    put(line, '.');
    put_uint(line, (uint32_t)(magnitude % 1000), 3);
}

void pb_field_factor(pb_line *line, pb_factor factor)
{
    uint32_t magnitude, scale = 1, whole, frac;
    uint8_t i;
    if (factor.mantissa == 0) {
        pb_field_none(line);
        return;
    }
    separator(line);
    if (factor.mantissa < 0) {
        put(line, '-');
        magnitude = (uint32_t)0 - (uint32_t)factor.mantissa;
    } else {
        magnitude = (uint32_t)factor.mantissa;
    }
    for (i = 0; i < factor.decimals; i++)
        scale *= 10;
    whole = magnitude / scale;
    frac = magnitude % scale;
    put_uint(line, whole, 0);
    if (factor.decimals) {
        put(line, '.');
        put_uint(line, frac, factor.decimals);
    }
}

uint8_t pb_line_end(pb_line *line)
{
    static const char hex[] = "0123456789ABCDEF";
    uint16_t crc = line->crc;
    if (line->overflow || line->len + 5 > PB_LINE_MAX)
        return 0;
    line->text[line->len++] = '*';
    line->text[line->len++] = hex[(crc >> 12) & 0xF];
    line->text[line->len++] = hex[(crc >> 8) & 0xF];
    line->text[line->len++] = hex[(crc >> 4) & 0xF];
    line->text[line->len++] = hex[crc & 0xF];
    line->text[line->len++] = '\r';
    line->text[line->len++] = '\n';
    line->text[line->len] = 0;
    return line->len;
}

/* ------------------------------------------------------------------ whole lines */

static void identity_fields(pb_line *line, const char *firmware, const char *device_id,
                            uint8_t channels, uint8_t rate, uint8_t settings)
{
    pb_field_uint(line, PB_PROTOCOL_VERSION);
    pb_field_str(line, firmware);
    pb_field_str(line, device_id);
    pb_field_uint(line, channels);
    pb_field_uint(line, rate);
    if (settings > PB_SETTINGS_BAD)
        settings = PB_SETTINGS_BAD;
    pb_field_P(line, PB_READ_PTR(&settings_names[settings]));
}

void pb_format_hello(pb_line *line, const char *firmware, const char *device_id,
                     uint8_t channels, uint8_t rate, uint8_t settings, uint8_t reset)
{
    pb_line_begin(line, "HELLO");
    identity_fields(line, firmware, device_id, channels, rate, settings);
    if (reset > PB_RESET_UNKNOWN)
        reset = PB_RESET_UNKNOWN;
    pb_field_P(line, PB_READ_PTR(&reset_names[reset]));
    pb_line_end(line);
}

void pb_begin_ok(pb_line *line, uint8_t cmd)
{
    pb_line_begin(line, "OK");
    pb_field_P(line, pb_command_name_P(cmd));
}

void pb_format_info(pb_line *line, const char *firmware, const char *device_id,
                    uint8_t channels, uint8_t rate, uint8_t settings,
                    uint8_t streaming, uint8_t powered)
{
    pb_begin_ok(line, PB_CMD_INFO);
    identity_fields(line, firmware, device_id, channels, rate, settings);
    pb_field_uint(line, streaming ? 1 : 0);
    pb_field_uint(line, powered ? 1 : 0);
    pb_line_end(line);
}

void pb_format_data(pb_line *line, uint16_t seq, uint32_t ms, uint8_t channel,
                    uint8_t has_raw, int32_t raw, uint8_t has_grams, int64_t milligrams,
                    uint16_t flags)
{
    pb_line_begin(line, "D");
    pb_field_uint(line, seq);
    pb_field_uint(line, ms);
    pb_field_uint(line, channel);
    if (has_raw)
        pb_field_int(line, raw);
    else
        pb_field_none(line);
    if (has_grams)
        pb_field_milli(line, milligrams);
    else
        pb_field_none(line);
    pb_field_hex16(line, flags);
    pb_line_end(line);
}

void pb_format_calibration(pb_line *line, uint8_t cmd, uint8_t channel, int32_t offset,
                           pb_factor factor, const char *cal_id)
{
    pb_begin_ok(line, cmd);
    pb_field_uint(line, channel);
    pb_field_int(line, offset);
    pb_field_factor(line, factor);
    pb_field_str(line, factor.mantissa ? cal_id : "");
    pb_line_end(line);
}

void pb_format_wiring(pb_line *line, uint8_t channel, uint8_t dout, uint8_t sck, int8_t rate_pin)
{
    pb_begin_ok(line, PB_CMD_WIRING);
    pb_field_uint(line, channel);
    pb_field_uint(line, dout);
    pb_field_uint(line, sck);
    if (rate_pin < 0)
        pb_field_none(line);
    else
        pb_field_uint(line, (uint32_t)rate_pin);
    pb_line_end(line);
}

void pb_format_error(pb_line *line, uint8_t code, uint8_t cmd)
{
    pb_line_begin(line, "ERR");
    pb_field_uint(line, code);
    pb_field_P(line, pb_command_name_P(cmd));
    pb_field_P(line, pb_error_text_P(code));
    pb_line_end(line);
}

/* ------------------------------------------------------------------ parsing */

#define MAX_FIELDS 6

typedef struct {
    const char *p;
    uint8_t len;
} field;

static char upper(char c)
{
    return (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = upper(c);
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static uint8_t name_matches_P(const field *f, const char *progmem_name)
{
    uint8_t i;
    for (i = 0; i < f->len; i++) {
        char c = (char)pgm_read_byte(progmem_name + i);
        if (!c || c != upper(f->p[i]))
            return 0;
    }
    return pgm_read_byte(progmem_name + f->len) == 0;
}

/* A whole number: optional '-', digits. PB_ERR_RANGE beyond nine digits. */
static uint8_t parse_int(const field *f, int32_t *out)
{
    uint8_t i = 0, digits = 0, negative = 0;
    int32_t value = 0;
    if (f->len && f->p[0] == '-') {
        negative = 1;
        i = 1;
    }
    if (i >= f->len)
        return PB_ERR_SYNTAX;
    for (; i < f->len; i++) {
        char c = f->p[i];
        if (c < '0' || c > '9')
            return PB_ERR_SYNTAX;
        if (digits || c != '0')
            digits++;
        if (digits > 9)
            return PB_ERR_RANGE;
        value = value * 10 + (c - '0');
    }
    *out = negative ? -value : value;
    return PB_OK;
}

static uint8_t parse_choice(const field *f, int32_t *out, const int16_t *allowed, uint8_t n)
{
    uint8_t i, err = parse_int(f, out);
    if (err)
        return err;
    for (i = 0; i < n; i++)
        if (*out == allowed[i])
            return PB_OK;
    return PB_ERR_RANGE;
}

static uint8_t parse_switch(const field *f, int32_t *out)
{
    static const int16_t allowed[] = {0, 1};
    return parse_choice(f, out, allowed, 2);
}

static uint8_t parse_channel(const field *f, uint8_t channels, pb_command *out)
{
    int32_t v;
    uint8_t err = parse_int(f, &v);
    if (err)
        return err;
    if (v < 0 || v >= channels)
        return PB_ERR_RANGE;
    out->channel = (uint8_t)v;
    return PB_OK;
}

static uint8_t parse_name(const field *f, char *out, uint8_t longest)
{
    uint8_t i;
    for (i = 0; i < f->len; i++) {
        char c = f->p[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-'))
            return PB_ERR_SYNTAX;
    }
    if (f->len == 1 && f->p[0] == '-')
        return PB_ERR_SYNTAX; /* "-" means "none" and cannot be a name */
    if (f->len > longest)
        return PB_ERR_RANGE;
    memcpy(out, f->p, f->len);
    out[f->len] = 0;
    return PB_OK;
}

uint8_t pb_parse_factor(const char *text, uint8_t len, pb_factor *out)
{
    uint8_t i = 0, negative = 0, int_start, int_end, frac_start, frac_end, digits = 0;
    int32_t mantissa = 0;
    if (len && text[0] == '-') {
        negative = 1;
        i = 1;
    }
    int_start = i;
    while (i < len && text[i] >= '0' && text[i] <= '9')
        i++;
    int_end = i;
    if (int_end == int_start)
        return PB_ERR_SYNTAX;
    frac_start = frac_end = i;
    if (i < len && text[i] == '.') {
        frac_start = ++i;
        while (i < len && text[i] >= '0' && text[i] <= '9')
            i++;
        frac_end = i;
        if (frac_end == frac_start)
            return PB_ERR_SYNTAX;
    }
    if (i != len)
        return PB_ERR_SYNTAX;
    while (frac_end > frac_start && text[frac_end - 1] == '0')
        frac_end--; /* 2150.50 is 2150.5 */
    if (frac_end - frac_start > PB_FACTOR_DECIMALS)
        return PB_ERR_RANGE;
    for (i = int_start; i < frac_end; i++) {
        if (i == int_end) {
            i = frac_start;
            if (i >= frac_end)
                break;
        }
        if (digits || text[i] != '0')
            digits++;
        if (digits > PB_FACTOR_DIGITS)
            return PB_ERR_RANGE;
        mantissa = mantissa * 10 + (text[i] - '0');
    }
    if (mantissa == 0)
        return PB_ERR_RANGE;
    out->mantissa = negative ? -mantissa : mantissa;
    out->decimals = (uint8_t)(frac_end - frac_start);
    return PB_OK;
}

static uint8_t parse_args(pb_command *out, const field *args, uint8_t nargs, uint8_t channels)
{
    static const int16_t rates[] = {10, 80};
    static const int16_t gains[] = {128, 64, 32};
    static const int16_t counts[] = {1, 2};
    uint8_t err;

    switch (out->cmd) {
    case PB_CMD_PING:
        if (nargs > 1)
            return PB_ERR_SYNTAX;
        return nargs ? parse_name(&args[0], out->text, PB_TEXT_MAX) : PB_OK;
    case PB_CMD_INFO:
    case PB_CMD_DEFAULTS:
    case PB_CMD_RESET:
        return nargs ? PB_ERR_SYNTAX : PB_OK;
    case PB_CMD_WIRING:
        if (nargs != 1)
            return PB_ERR_SYNTAX;
        return parse_channel(&args[0], channels, out);
    case PB_CMD_ID:
        if (nargs > 1)
            return PB_ERR_SYNTAX;
        out->set = nargs;
        return nargs ? parse_name(&args[0], out->text, PB_TEXT_MAX) : PB_OK;
    case PB_CMD_CHANNELS:
    case PB_CMD_STREAM:
    case PB_CMD_POWER:
    case PB_CMD_RATE:
        if (nargs > 1)
            return PB_ERR_SYNTAX;
        out->set = nargs;
        if (!nargs)
            return PB_OK;
        if (out->cmd == PB_CMD_RATE)
            return parse_choice(&args[0], &out->value, rates, 2);
        if (out->cmd == PB_CMD_CHANNELS)
            return parse_choice(&args[0], &out->value, counts, 2);
        return parse_switch(&args[0], &out->value);
    case PB_CMD_GAIN:
        if (nargs < 1 || nargs > 2)
            return PB_ERR_SYNTAX;
        out->set = (uint8_t)(nargs - 1);
        if ((err = parse_channel(&args[0], channels, out)) != PB_OK)
            return err;
        return out->set ? parse_choice(&args[1], &out->value, gains, 3) : PB_OK;
    case PB_CMD_TARE:
        if (nargs < 1 || nargs > 2)
            return PB_ERR_SYNTAX;
        out->set = 1;
        out->value = PB_TARE_DEFAULT;
        if ((err = parse_channel(&args[0], channels, out)) != PB_OK)
            return err;
        if (nargs == 2) {
            if ((err = parse_int(&args[1], &out->value)) != PB_OK)
                return err;
            if (out->value < 1 || out->value > PB_TARE_MAX)
                return PB_ERR_RANGE;
        }
        return PB_OK;
    case PB_CMD_CAL:
        if (nargs != 1 && nargs != 4)
            return PB_ERR_SYNTAX;
        out->set = nargs == 4;
        if ((err = parse_channel(&args[0], channels, out)) != PB_OK)
            return err;
        if (!out->set)
            return PB_OK;
        if ((err = parse_int(&args[1], &out->offset)) != PB_OK)
            return err;
        if (out->offset < PB_RAW_MIN || out->offset > PB_RAW_MAX)
            return PB_ERR_RANGE;
        if (!(args[2].len == 1 && args[2].p[0] == '-')) {
            if ((err = pb_parse_factor(args[2].p, args[2].len, &out->factor)) != PB_OK)
                return err;
        }
        if (!(args[3].len == 1 && args[3].p[0] == '-')) {
            if (out->factor.mantissa == 0)
                return PB_ERR_SYNTAX; /* an id names a factor; there is none */
            return parse_name(&args[3], out->text, PB_CAL_ID_MAX);
        }
        return PB_OK;
    default:
        return PB_ERR_UNKNOWN;
    }
}

uint8_t pb_parse_command(const char *line, uint8_t len, uint8_t channels, pb_command *out)
{
    field fields[MAX_FIELDS];
    uint8_t start = 0, end = len, nfields = 0, i, cmd, err;

    memset(out, 0, sizeof *out);
    for (i = 0; i < len; i++)
        if ((uint8_t)line[i] < 0x20 || (uint8_t)line[i] > 0x7E)
            return PB_ERR_SYNTAX;
    while (start < end && line[start] == ' ')
        start++;
    while (end > start && line[end - 1] == ' ')
        end--;
    if (start == end)
        return PB_OK; /* an empty line: nothing to do */
    if (line[start] == '$')
        start++;

    for (i = start; i < end; i++) {
        if (line[i] != '*')
            continue;
        if (i + 5 != end)
            return PB_ERR_SYNTAX;
        {
            uint16_t sent = 0;
            uint8_t k;
            for (k = 1; k <= 4; k++) {
                int digit = hex_value(line[i + k]);
                if (digit < 0)
                    return PB_ERR_SYNTAX;
                sent = (uint16_t)((sent << 4) | (uint16_t)digit);
            }
            if (pb_crc16(line + start, (uint8_t)(i - start)) != sent)
                return PB_ERR_CHECKSUM;
        }
        end = i;
        break;
    }

    /* Fields, separated by ',' (or ' ', for typing in a serial monitor). */
    fields[0].p = line + start;
    fields[0].len = 0;
    nfields = 1;
    for (i = start; i < end; i++) {
        if (line[i] == ',' || line[i] == ' ') {
            if (nfields == MAX_FIELDS)
                return PB_ERR_SYNTAX;
            fields[nfields].p = line + i + 1;
            fields[nfields].len = 0;
            nfields++;
        } else {
            fields[nfields - 1].len++;
        }
    }

    for (cmd = PB_CMD_NONE + 1; cmd < PB_CMD_COUNT; cmd++)
        if (name_matches_P(&fields[0], pb_command_name_P(cmd)))
            break;
    if (cmd == PB_CMD_COUNT || fields[0].len == 0)
        return PB_ERR_UNKNOWN;
    out->cmd = cmd;

    for (i = 1; i < nfields; i++)
        if (fields[i].len == 0)
            return PB_ERR_SYNTAX;
    err = parse_args(out, fields + 1, (uint8_t)(nfields - 1), channels);
    return err;
}

/* ------------------------------------------------------------------ grams */

int64_t pb_milligrams(int32_t raw, int32_t offset, pb_factor factor)
{
    int64_t numerator = (int64_t)raw - (int64_t)offset;
    uint64_t magnitude, divisor, quotient, remainder;
    uint8_t i, negative;
    if (factor.mantissa == 0)
        return 0;
    for (i = 0; i < factor.decimals + 3; i++)
        numerator *= 10;
    negative = (numerator < 0) != (factor.mantissa < 0);
    magnitude = numerator < 0 ? (uint64_t)0 - (uint64_t)numerator : (uint64_t)numerator;
    divisor = factor.mantissa < 0 ? (uint64_t)(-(int64_t)factor.mantissa) : (uint64_t)factor.mantissa;
    quotient = magnitude / divisor;
    remainder = magnitude % divisor;
    if (2 * remainder >= divisor)
        quotient++;
    return negative ? -(int64_t)quotient : (int64_t)quotient;
}
