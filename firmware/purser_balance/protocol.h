/*
 * The balance's serial line protocol, version 2: line formatting and command parsing.
 *
 * Plain C with no Arduino dependency, so the same file is compiled into the firmware
 * and into the host-side unit tests (firmware/tests). hardware.md describes the
 * protocol; firmware/protocol-vectors.txt holds the vectors both sides are tested on.
 */
#ifndef PURSER_PROTOCOL_H
#define PURSER_PROTOCOL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PB_PROTOCOL_VERSION 2

#define PB_LINE_MAX 96      /* longest line the balance sends, without CR LF */
#define PB_COMMAND_MAX 64   /* longest command line accepted, without its end */
#define PB_TEXT_MAX 16      /* longest device id / ping token */
#define PB_CAL_ID_MAX 12    /* longest calibration id */
#define PB_RAW_MIN (-8388608L)
#define PB_RAW_MAX 8388607L
#define PB_TARE_DEFAULT 8
#define PB_TARE_MAX 64
#define PB_FACTOR_DIGITS 9  /* significant digits of a calibration factor */
#define PB_FACTOR_DECIMALS 6

/* Data-line flags (hardware.md, "Flags"). */
#define PB_FLAG_NO_CHIP      0x0001u
#define PB_FLAG_SATURATED    0x0002u
#define PB_FLAG_POWERED_DOWN 0x0004u
#define PB_FLAG_UNCALIBRATED 0x0008u
#define PB_FLAG_DEFAULTS     0x0010u
#define PB_FLAG_SETTLING     0x0020u
#define PB_FLAG_TARING       0x0040u
#define PB_FLAG_DOUT_LOW     0x0080u /* with NO_CHIP: DOUT held low, not floating high */

/* Error codes of $ERR replies. */
enum {
    PB_OK = 0,
    PB_ERR_UNKNOWN = 1,
    PB_ERR_SYNTAX = 2,
    PB_ERR_RANGE = 3,
    PB_ERR_CHECKSUM = 4,
    PB_ERR_TOO_LONG = 5,
    PB_ERR_BUSY = 6,
    PB_ERR_NO_CHIP = 7,
    PB_ERR_SATURATED = 8,
    PB_ERR_UNSUPPORTED = 9,
    PB_ERR_EEPROM = 10,
    PB_ERR_COUNT
};

/* Commands, in the order of their names in protocol.c. */
enum {
    PB_CMD_NONE = 0,
    PB_CMD_PING,
    PB_CMD_INFO,
    PB_CMD_ID,
    PB_CMD_CHANNELS,
    PB_CMD_STREAM,
    PB_CMD_RATE,
    PB_CMD_GAIN,
    PB_CMD_POWER,
    PB_CMD_TARE,
    PB_CMD_CAL,
    PB_CMD_DEFAULTS,
    PB_CMD_RESET,
    PB_CMD_WIRING,
    PB_CMD_COUNT
};

/* Settings state reported in the hello and INFO lines. */
enum { PB_SETTINGS_OK = 0, PB_SETTINGS_BLANK, PB_SETTINGS_BAD };

/* Reset causes reported in the hello line. */
enum {
    PB_RESET_POWER = 0,
    PB_RESET_EXTERNAL,
    PB_RESET_BROWNOUT,
    PB_RESET_WATCHDOG,
    PB_RESET_COMMAND,
    PB_RESET_UNKNOWN
};

/* A calibration factor in counts per gram: mantissa * 10^-decimals, kept exactly as
 * the host wrote it so that both sides compute the same grams. mantissa 0 = none. */
typedef struct {
    int32_t mantissa;
    uint8_t decimals;
} pb_factor;

/* A parsed command. `set` is 1 when the command carries new values, 0 for a query. */
typedef struct {
    uint8_t cmd;
    uint8_t set;
    uint8_t channel;
    int32_t value;      /* channel count, 0/1 switch, rate, gain or tare samples */
    int32_t offset;     /* CAL: tare offset in counts */
    pb_factor factor;   /* CAL: counts per gram, mantissa 0 = uncalibrated */
    char text[PB_TEXT_MAX + 1]; /* PING token, ID, or CAL calibration id ("" = none) */
} pb_command;

/* A line being built: "$" + fields + "*CCCC\r\n". */
typedef struct {
    char text[PB_LINE_MAX + 3];
    uint8_t len;
    uint16_t crc;
    uint8_t overflow;
} pb_line;

/* CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final
 * XOR. It finds every error of up to three bits in a line (and every odd number of bit
 * errors, and every burst up to 16 bits), where CRC-8 let some two-bit errors through. */
#define PB_CRC_INIT 0xFFFFu
uint16_t pb_crc16_update(uint16_t crc, uint8_t byte);
uint16_t pb_crc16(const char *data, uint8_t len);

/* Building lines. Fields after the first are separated by commas automatically. */
void pb_line_begin(pb_line *line, const char *kind);
void pb_field_str(pb_line *line, const char *text);   /* "" is written as "-" */
void pb_field_P(pb_line *line, const char *progmem_text);
void pb_field_int(pb_line *line, int32_t value);
void pb_field_uint(pb_line *line, uint32_t value);
void pb_field_hex16(pb_line *line, uint16_t value);
void pb_field_milli(pb_line *line, int64_t thousandths); /* "-12.345" */
void pb_field_factor(pb_line *line, pb_factor factor);   /* canonical, "-" when none */
void pb_field_none(pb_line *line);
/* Finishes the line; returns its length including CR LF, or 0 if it overflowed. */
uint8_t pb_line_end(pb_line *line);

/* Whole lines. */
void pb_format_hello(pb_line *line, const char *firmware, const char *device_id,
                     uint8_t channels, uint8_t rate, uint8_t settings, uint8_t reset);
void pb_format_info(pb_line *line, const char *firmware, const char *device_id,
                    uint8_t channels, uint8_t rate, uint8_t settings,
                    uint8_t streaming, uint8_t powered);
/* A data line; has_raw/has_grams 0 print "-". grams in milligrams. */
void pb_format_data(pb_line *line, uint16_t seq, uint32_t ms, uint8_t channel,
                    uint8_t has_raw, int32_t raw, uint8_t has_grams, int64_t milligrams,
                    uint16_t flags);
void pb_format_calibration(pb_line *line, uint8_t cmd, uint8_t channel, int32_t offset,
                           pb_factor factor, const char *cal_id);
void pb_format_error(pb_line *line, uint8_t code, uint8_t cmd);
/* "$OK,WIRING,<ch>,<dout pin>,<sck pin>,<rate pin or ->": Arduino pin numbers. */
void pb_format_wiring(pb_line *line, uint8_t channel, uint8_t dout, uint8_t sck, int8_t rate_pin);
/* "$OK,<NAME>" without the end; add fields, then pb_line_end. */
void pb_begin_ok(pb_line *line, uint8_t cmd);

/* The name of a command ("TARE") and the text of an error code, in program memory. */
const char *pb_command_name_P(uint8_t cmd);
const char *pb_error_text_P(uint8_t code);

/* Parses one command line (without its line end). `channels` is the number of active
 * channels, for range checks. Returns PB_OK, or an error code; then out->cmd says which
 * command it was (PB_CMD_NONE when not even the name could be trusted). An empty line
 * returns PB_OK with cmd PB_CMD_NONE and is to be ignored. */
uint8_t pb_parse_command(const char *line, uint8_t len, uint8_t channels, pb_command *out);

/* Parses a calibration factor; returns PB_OK, PB_ERR_SYNTAX or PB_ERR_RANGE. */
uint8_t pb_parse_factor(const char *text, uint8_t len, pb_factor *out);

/* (raw - offset) / factor in milligrams, rounded half away from zero. */
int64_t pb_milligrams(int32_t raw, int32_t offset, pb_factor factor);

#ifdef __cplusplus
}
#endif

#endif
