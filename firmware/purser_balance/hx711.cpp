#include "hx711.h"

#include <Arduino.h>

void hx711_begin(Hx711 &chip, uint8_t dout, uint8_t sck)
{
    chip.dout_in = portInputRegister(digitalPinToPort(dout));
    chip.dout_mask = digitalPinToBitMask(dout);
    chip.sck_out = portOutputRegister(digitalPinToPort(sck));
    chip.sck_mask = digitalPinToBitMask(sck);
    chip.extra_pulses = 1;
    /* The HX711 drives DOUT push-pull; the pull-up makes a missing chip read "busy"
     * (high) instead of a stream of zero readings. */
    pinMode(dout, INPUT_PULLUP);
    pinMode(sck, OUTPUT);
    digitalWrite(sck, LOW); /* also disconnects any PWM timer from the pin */
}

static inline bool dout_high(const Hx711 &chip)
{
    return (*chip.dout_in & chip.dout_mask) != 0;
}

bool hx711_ready(Hx711 &chip)
{
    return !dout_high(chip);
}

/* One clock pulse; returns DOUT sampled while PD_SCK is high (data is valid 0.1 us
 * after the rising edge; the high phase must last 0.2 to 50 us). Interrupts are held
 * off only for the high phase, so an interrupt can never stretch it past the 60 us that
 * would power the chip down. */
static uint8_t pulse(const Hx711 &chip)
{
    uint8_t bit;
    uint8_t sreg = SREG;
    cli();
    *chip.sck_out |= chip.sck_mask;
    __builtin_avr_delay_cycles(8); /* 0.5 us at 16 MHz */
    bit = dout_high(chip) ? 1 : 0;
    *chip.sck_out &= (uint8_t)~chip.sck_mask;
    SREG = sreg;
    __builtin_avr_delay_cycles(8);
    return bit;
}

int32_t hx711_read(Hx711 &chip, bool *still_low)
{
    uint32_t value = 0;
    uint8_t i;
    for (i = 0; i < 24; i++)
        value = (value << 1) | pulse(chip);
    for (i = 0; i < chip.extra_pulses; i++)
        pulse(chip);
    __builtin_avr_delay_cycles(8);
    *still_low = !dout_high(chip);
    if (value & 0x800000UL)
        value |= 0xFF000000UL; /* sign-extend 24 to 32 bits */
    return (int32_t)value;
}

void hx711_set_gain(Hx711 &chip, uint8_t gain)
{
    chip.extra_pulses = gain == 32 ? 2 : gain == 64 ? 3 : 1;
}

uint8_t hx711_gain(const Hx711 &chip)
{
    return chip.extra_pulses == 2 ? 32 : chip.extra_pulses == 3 ? 64 : 128;
}

void hx711_power(Hx711 &chip, bool on)
{
    uint8_t sreg = SREG;
    cli();
    if (on)
        *chip.sck_out &= (uint8_t)~chip.sck_mask;
    else
        *chip.sck_out |= chip.sck_mask;
    SREG = sreg;
}
