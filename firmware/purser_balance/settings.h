/*
 * Settings kept in EEPROM, each block guarded by a CRC-16 (CCITT) so a worn or
 * half-written EEPROM is noticed: a bad block falls back to defaults and says so.
 *
 *   settings block (address 0):   layout version, channel count, rate, and per channel
 *                                 the tare offset, calibration factor and id, and gain
 *   identity block (address 128): the device id, kept apart so that clearing the
 *                                 calibration never changes which balance this is
 *
 * Saving is non-blocking: one byte is written each time the EEPROM is ready (3.4 ms per
 * byte), so readings keep flowing while a calibration is stored.
 */
#ifndef PURSER_SETTINGS_H
#define PURSER_SETTINGS_H

#include <stdint.h>

#include "protocol.h"

struct ChannelSettings {
    int32_t offset;           /* tare offset, counts */
    int32_t factor_mantissa;  /* counts per gram = mantissa * 10^-decimals; 0: none */
    uint8_t factor_decimals;
    uint8_t gain;             /* 128, 64 or 32 */
    char cal_id[PB_CAL_ID_MAX + 1];
};

struct Settings {
    uint8_t layout;           /* SETTINGS_LAYOUT */
    uint8_t channels;         /* channels in use, 1..PURSER_MAX_CHANNELS */
    uint8_t rate;             /* 10 or 80 samples per second */
    uint8_t reserved;
    ChannelSettings ch[2];
};

extern Settings settings;
extern char device_id[PB_TEXT_MAX + 1];
/* PB_SETTINGS_OK once the settings block was read or saved; BLANK / BAD while the
 * defaults that replaced an empty or corrupt block are not yet saved. */
extern uint8_t settings_state;

/* Loads both blocks; returns PB_SETTINGS_OK, _BLANK or _BAD for the settings block
 * (defaults are in use unless OK). Makes and saves a device id if there is none. */
uint8_t settings_load(void);

/* Factory settings (the device id is kept). */
void settings_defaults(void);

pb_factor settings_factor(uint8_t channel);

/* Start saving the settings / the device id. A save already under way restarts with
 * the newest values, so when saving finishes everything asked for is stored. */
void settings_save(void);
void settings_save_id(void);

enum { SAVE_IDLE = 0, SAVE_BUSY, SAVE_DONE, SAVE_FAILED };

/* Advance a save by at most one byte; returns SAVE_DONE or SAVE_FAILED once when a
 * save ends (FAILED: a byte read back differs), SAVE_BUSY while writing, else SAVE_IDLE. */
uint8_t settings_poll(void);

#endif
