#include "settings.h"

#include <avr/boot.h>
#include <avr/eeprom.h>
#include <avr/io.h>
#include <string.h>

#include "config.h"

#define SETTINGS_ADDR 0
#define IDENTITY_ADDR 128
#define SETTINGS_LAYOUT 1
#define IDENTITY_MAGIC 0x1D

Settings settings;
char device_id[PB_TEXT_MAX + 1];
uint8_t settings_state = PB_SETTINGS_BLANK;

struct Identity {
    uint8_t magic;
    char id[PB_TEXT_MAX + 1];
};

/* The images being written: what the EEPROM must hold when the save ends. */
static struct {
    Settings settings;
    uint16_t crc;
} settings_image;
static struct {
    Identity identity;
    uint16_t crc;
} identity_image;

static struct {
    uint8_t active;    /* bit 0: settings, bit 1: identity */
    uint8_t block;     /* 0 or 1: which block is being written */
    uint8_t pos;
    uint8_t written;   /* the byte at pos was written and awaits its read-back */
    uint8_t failed;
} writer;

static uint16_t crc16(const uint8_t *data, uint8_t len)
{
    uint16_t crc = 0xFFFF;
    uint8_t i;
    while (len--) {
        crc ^= (uint16_t)(*data++) << 8;
        for (i = 0; i < 8; i++)
            crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
    }
    return crc;
}

void settings_defaults(void)
{
    uint8_t c;
    memset(&settings, 0, sizeof settings);
    settings.layout = SETTINGS_LAYOUT;
    settings.channels = PURSER_MAX_CHANNELS;
    settings.rate = PURSER_RATE_PIN < 0 ? PURSER_FIXED_RATE : 80;
    for (c = 0; c < 2; c++)
        settings.ch[c].gain = 128;
}

static bool settings_valid(const Settings &s)
{
    uint8_t c;
    if (s.layout != SETTINGS_LAYOUT || s.channels < 1 || s.channels > PURSER_MAX_CHANNELS)
        return false;
    if (s.rate != 10 && s.rate != 80)
        return false;
    if (PURSER_RATE_PIN < 0 && s.rate != PURSER_FIXED_RATE)
        return false;
    for (c = 0; c < 2; c++) {
        const ChannelSettings &ch = s.ch[c];
        if (ch.gain != 128 && ch.gain != 64 && ch.gain != 32)
            return false;
        if (ch.offset < PB_RAW_MIN || ch.offset > PB_RAW_MAX || ch.factor_decimals > PB_FACTOR_DECIMALS)
            return false;
        if (ch.factor_mantissa > 999999999L || ch.factor_mantissa < -999999999L)
            return false;
        if (ch.cal_id[PB_CAL_ID_MAX] != 0)
            return false;
    }
    return true;
}

static bool all_erased(const uint8_t *p, uint8_t len)
{
    while (len--)
        if (*p++ != 0xFF)
            return false;
    return true;
}

/* A device id from the chip itself: the signature row holds per-chip lot, wafer and
 * position bytes on ATmega328P parts, and OSCCAL is trimmed per chip at the factory. */
static void make_device_id(void)
{
    static const char hex[] = "0123456789ABCDEF";
    uint32_t h = 2166136261UL; /* FNV-1a */
    uint8_t i;
    for (i = 0x0E; i <= 0x17; i++) {
        h ^= boot_signature_byte_get(i);
        h *= 16777619UL;
    }
    h ^= OSCCAL;
    h *= 16777619UL;
    device_id[0] = 'P';
    device_id[1] = 'B';
    device_id[2] = '-';
    for (i = 0; i < 8; i++)
        device_id[3 + i] = hex[(h >> (28 - 4 * i)) & 0xF];
    device_id[11] = 0;
}

uint8_t settings_load(void)
{
    uint8_t state;
    memset(&writer, 0, sizeof writer);
    eeprom_read_block(&settings_image, (const void *)SETTINGS_ADDR, sizeof settings_image);
    if (crc16((const uint8_t *)&settings_image.settings, sizeof settings_image.settings) ==
            settings_image.crc && settings_valid(settings_image.settings)) {
        settings = settings_image.settings;
        state = PB_SETTINGS_OK;
    } else {
        state = all_erased((const uint8_t *)&settings_image, sizeof settings_image) ? PB_SETTINGS_BLANK
                                                                                      : PB_SETTINGS_BAD;
        settings_defaults();
    }

    eeprom_read_block(&identity_image, (const void *)IDENTITY_ADDR, sizeof identity_image);
    identity_image.identity.id[PB_TEXT_MAX] = 0;
    if (identity_image.identity.magic == IDENTITY_MAGIC && identity_image.identity.id[0] &&
        crc16((const uint8_t *)&identity_image.identity, sizeof identity_image.identity) == identity_image.crc) {
        strcpy(device_id, identity_image.identity.id);
    } else {
        make_device_id();
        settings_save_id();
    }
    settings_state = state;
    return state;
}

pb_factor settings_factor(uint8_t channel)
{
    pb_factor f;
    f.mantissa = settings.ch[channel].factor_mantissa;
    f.decimals = settings.ch[channel].factor_decimals;
    return f;
}

void settings_save(void)
{
    settings_image.settings = settings;
    settings_image.crc = crc16((const uint8_t *)&settings, sizeof settings);
    writer.active |= 1;
    if (writer.block == 0) {
        writer.pos = 0; /* restart: bytes already right are skipped at no cost */
        writer.written = 0;
    }
}

void settings_save_id(void)
{
    memset(&identity_image, 0, sizeof identity_image);
    identity_image.identity.magic = IDENTITY_MAGIC;
    strncpy(identity_image.identity.id, device_id, PB_TEXT_MAX);
    identity_image.crc = crc16((const uint8_t *)&identity_image.identity, sizeof identity_image.identity);
    writer.active |= 2;
    if (writer.block == 1) {
        writer.pos = 0;
        writer.written = 0;
    }
}

uint8_t settings_poll(void)
{
    const uint8_t *src;
    uint16_t base;
    uint8_t len, result;

    if (!writer.active)
        return SAVE_IDLE;
    if (!eeprom_is_ready())
        return SAVE_BUSY;
    if (!(writer.active & (1 << writer.block))) {
        writer.block ^= 1;
        writer.pos = 0;
        writer.written = 0;
    }
    if (writer.block == 0) {
        src = (const uint8_t *)&settings_image;
        base = SETTINGS_ADDR;
        len = sizeof settings_image;
    } else {
        src = (const uint8_t *)&identity_image;
        base = IDENTITY_ADDR;
        len = sizeof identity_image;
    }
    /* Skip bytes that already hold the right value; write at most one per call and
     * read it back on the next. A byte that does not stick fails the save. */
    while (writer.pos < len) {
        uint8_t *addr = (uint8_t *)(base + writer.pos);
        if (eeprom_read_byte(addr) != src[writer.pos]) {
            if (!writer.written) {
                eeprom_write_byte(addr, src[writer.pos]);
                writer.written = 1;
                return SAVE_BUSY;
            }
            writer.failed = 1;
        }
        writer.written = 0;
        writer.pos++;
    }
    /* Every byte read back equal: the block is stored. */
    if (writer.block == 0 && !writer.failed)
        settings_state = PB_SETTINGS_OK;
    writer.active &= (uint8_t)~(1 << writer.block);
    writer.pos = 0;
    if (writer.active)
        return SAVE_BUSY;
    result = writer.failed ? SAVE_FAILED : SAVE_DONE;
    writer.failed = 0;
    return result;
}
