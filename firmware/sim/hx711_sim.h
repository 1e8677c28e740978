/*
 * An emulated HX711 on two AVR pins of a running simavr core.
 *
 * DOUT goes low when a conversion is ready; each rising PD_SCK edge shifts out one bit,
 * MSB first, 24 bits two's complement; DOUT goes high at the 25th edge; 25/26/27 edges
 * select A/128, B/32, A/64 for the next conversion. PD_SCK high for more than 60 us
 * powers the chip down; taking it low again resets it (gain back to A/128) and the
 * first conversion comes after the settling time (400 ms at 10 SPS, 50 ms at 80 SPS).
 * Conversions come every 100 / 12.5 ms, at the rate the RATE pin (or a strap) selects.
 *
 * The load is either an exact output code ("raw") or grams through a load-cell model
 * (zero offset + counts per gram at gain 128; negative for a reversed cell), plus
 * optional Gaussian noise. Faults: missing chip (DOUT floats high), DOUT stuck low,
 * saturation, a power glitch (the chip resets by itself).
 */
#ifndef PURSER_HX711_SIM_H
#define PURSER_HX711_SIM_H

#include <stdint.h>

#include <sim_avr.h>
#include <sim_irq.h>

enum hx_wiring { HX_PRESENT, HX_ABSENT, HX_STUCK_LOW };
enum hx_mode { HX_RAW, HX_GRAMS };

typedef struct hx711_sim {
    avr_t *avr;
    int index;
    char dout_port, sck_port;
    uint8_t dout_bit, sck_bit;
    avr_irq_t *dout_irq, *sck_irq;

    /* what is connected */
    enum hx_wiring wiring;
    enum hx_mode mode;
    int32_t raw;               /* HX_RAW: the output code */
    double grams;              /* HX_GRAMS: the load */
    double zero_counts;        /* cell model, at gain 128 */
    double counts_per_gram;    /* at gain 128; negative: reversed cell */
    double noise_rms;          /* counts */
    int saturate;              /* 0, +1 (0x7FFFFF), -1 (0x800000) */
    int forced_rate;           /* 0: follow the RATE pin; else 10 or 80 (strapped) */
    int rate_pin_high;         /* level of the MCU's RATE pin (when wired) */

    /* chip state */
    int powered;
    int sck_high;
    int ready;                 /* a conversion waits (DOUT low) */
    int edges;                 /* rising PD_SCK edges since the conversion was latched */
    int gain_next;             /* gain of the next conversion: 128, 32, 64 */
    int gain_latched;          /* gain of the conversion being shifted out */
    int32_t latched;
    int rate;                  /* rate of the running conversion clock */
    int timer_armed;
    int dout_level;
    avr_cycle_count_t last_edge; /* cycle of the last rising PD_SCK edge */

    /* counters, for status */
    uint32_t conversions, reads, power_downs, resets;
    uint64_t read_started, read_cycles; /* how long the MCU takes to clock a reading out */
} hx711_sim;

/* Wires the chip to the pins; it starts present, powered, in raw mode at 0. */
void hx711_sim_init(hx711_sim *chip, avr_t *avr, int index, char dout_port, int dout_bit,
                    char sck_port, int sck_bit);

/* After the AVR was reset (its cycle timers are gone): keep converting. */
void hx711_sim_rearm(hx711_sim *chip);

/* The chip loses power and comes back (unplug/replug, supply glitch, power cycle). */
void hx711_sim_power_reset(hx711_sim *chip);

void hx711_sim_set_wiring(hx711_sim *chip, enum hx_wiring wiring);

/* RATE pin level from the MCU, or a strap. */
void hx711_sim_rate_pin(hx711_sim *chip, int high);
void hx711_sim_force_rate(hx711_sim *chip, int rate);

/* The noise generator's seed (shared by all chips). */
void hx711_sim_seed(uint64_t seed);

/* The ports' external drive, applied to simavr. */
void hx711_sim_apply_external(avr_t *avr);

#endif
