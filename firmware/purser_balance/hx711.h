/*
 * Bit-banged reader for one HX711 24-bit load-cell ADC (no library needed).
 *
 * The HX711 pulls DOUT low when a conversion is ready; each PD_SCK pulse then shifts
 * out one bit, MSB first (24 bits, two's complement). 1, 2 or 3 more pulses choose the
 * input and gain of the NEXT conversion: A/128, B/32, A/64. PD_SCK held high for more
 * than 60 us powers the chip down; taking it low powers it up again (gain back to A/128).
 */
#ifndef PURSER_HX711_H
#define PURSER_HX711_H

#include <stdint.h>

struct Hx711 {
    /* Port registers and bit masks of the two pins, looked up once: clocking 25 bits
     * through digitalWrite() would take ten times as long. */
    volatile uint8_t *dout_in;
    volatile uint8_t *sck_out;
    uint8_t dout_mask;
    uint8_t sck_mask;
    uint8_t extra_pulses; /* 1: A/128, 2: B/32, 3: A/64 */
};

void hx711_begin(Hx711 &chip, uint8_t dout, uint8_t sck);

/* True when a conversion waits to be read (DOUT low). Never blocks. A DOUT shorted to
 * ground reads as always ready: hx711_read() then says so through *still_low. */
bool hx711_ready(Hx711 &chip);

/* Reads the waiting conversion (about 0.1 ms); only call after hx711_ready().
 * *still_low is set when DOUT stayed low after the read, which a working chip never
 * does (a DOUT wire shorted to ground, or no chip and no pull-up). */
int32_t hx711_read(Hx711 &chip, bool *still_low);

/* 128 or 64 (input A), 32 (input B). Takes effect from the conversion after next. */
void hx711_set_gain(Hx711 &chip, uint8_t gain);
uint8_t hx711_gain(const Hx711 &chip);

void hx711_power(Hx711 &chip, bool on);

#endif
