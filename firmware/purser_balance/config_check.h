/*
 * Compile-time checks of config.h for an ATmega328P (Uno, Nano, Pro Mini): a wrong pin
 * stops the build with a message instead of making a balance that silently reads nothing.
 */
#ifndef PURSER_CONFIG_CHECK_H
#define PURSER_CONFIG_CHECK_H

#include "config.h"

#if !defined(__AVR_ATmega328P__) && !defined(PURSER_HOST_BUILD)
#error "Purser balance firmware is written for the ATmega328P (Arduino Uno, Nano, Pro Mini)."
#endif

#if PURSER_MAX_CHANNELS != 1 && PURSER_MAX_CHANNELS != 2
#error "PURSER_MAX_CHANNELS must be 1 or 2"
#endif

#if PURSER_RATE_PIN < 0 && PURSER_FIXED_RATE != 10 && PURSER_FIXED_RATE != 80
#error "PURSER_FIXED_RATE must be 10 or 80 (how the HX711 RATE pin is strapped)"
#endif

namespace purser_config {

/* D2..D13 and A0..A5 (14..19) can be driven and read; D0/D1 are the serial port and
 * A6/A7 (20, 21 on a Nano) are analog inputs only. */
constexpr bool usable_pin(int pin) { return pin >= 2 && pin <= 19; }

constexpr bool distinct(int a, int b) { return a < 0 || b < 0 || a != b; }

constexpr int ch1(int pin) { return PURSER_MAX_CHANNELS == 2 ? pin : -1; }

static_assert(usable_pin(PURSER_CH0_DOUT_PIN), "PURSER_CH0_DOUT_PIN must be 2..19 (D2-D13, A0-A5)");
static_assert(usable_pin(PURSER_CH0_SCK_PIN), "PURSER_CH0_SCK_PIN must be 2..19 (D2-D13, A0-A5)");
static_assert(PURSER_MAX_CHANNELS == 1 || usable_pin(PURSER_CH1_DOUT_PIN),
              "PURSER_CH1_DOUT_PIN must be 2..19 (D2-D13, A0-A5)");
static_assert(PURSER_MAX_CHANNELS == 1 || usable_pin(PURSER_CH1_SCK_PIN),
              "PURSER_CH1_SCK_PIN must be 2..19 (D2-D13, A0-A5)");
static_assert(PURSER_RATE_PIN < 0 || usable_pin(PURSER_RATE_PIN), "PURSER_RATE_PIN must be 2..19 or -1");
static_assert(PURSER_LED_PIN < 0 || usable_pin(PURSER_LED_PIN), "PURSER_LED_PIN must be 2..19 or -1");

static_assert(distinct(PURSER_CH0_DOUT_PIN, PURSER_CH0_SCK_PIN) &&
              distinct(PURSER_CH0_DOUT_PIN, ch1(PURSER_CH1_DOUT_PIN)) &&
              distinct(PURSER_CH0_DOUT_PIN, ch1(PURSER_CH1_SCK_PIN)) &&
              distinct(PURSER_CH0_DOUT_PIN, PURSER_RATE_PIN) &&
              distinct(PURSER_CH0_DOUT_PIN, PURSER_LED_PIN) &&
              distinct(PURSER_CH0_SCK_PIN, ch1(PURSER_CH1_DOUT_PIN)) &&
              distinct(PURSER_CH0_SCK_PIN, ch1(PURSER_CH1_SCK_PIN)) &&
              distinct(PURSER_CH0_SCK_PIN, PURSER_RATE_PIN) &&
              distinct(PURSER_CH0_SCK_PIN, PURSER_LED_PIN) &&
              distinct(ch1(PURSER_CH1_DOUT_PIN), ch1(PURSER_CH1_SCK_PIN)) &&
              distinct(ch1(PURSER_CH1_DOUT_PIN), PURSER_RATE_PIN) &&
              distinct(ch1(PURSER_CH1_DOUT_PIN), PURSER_LED_PIN) &&
              distinct(ch1(PURSER_CH1_SCK_PIN), PURSER_RATE_PIN) &&
              distinct(ch1(PURSER_CH1_SCK_PIN), PURSER_LED_PIN) &&
              distinct(PURSER_RATE_PIN, PURSER_LED_PIN),
              "config.h uses a pin twice: every DOUT, SCK, RATE and LED pin must be different");

/* A data line is up to ~45 bytes: one channel at 80 samples/s needs 57600 baud, two
 * need 115200. */
static_assert(PURSER_BAUD == 57600 || PURSER_BAUD == 115200, "PURSER_BAUD must be 57600 or 115200");
static_assert(PURSER_BAUD == 115200 || PURSER_MAX_CHANNELS == 1,
              "two channels at 80 samples/s need 115200 baud");

}  // namespace purser_config

#endif
