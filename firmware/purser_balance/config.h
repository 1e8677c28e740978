/*
 * Build-time configuration of the balance firmware: edit this file to match your wiring.
 *
 * Pins are Arduino pin numbers as printed on an Uno or Nano (D2 is 2, A0 is 14 ... A5 is
 * 19). config_check.h refuses to compile a configuration that cannot work (a pin used
 * twice, the serial pins, a pin that does not exist, an analog-only pin).
 *
 * This header is plain preprocessor definitions so the simulator rig (firmware/sim)
 * wires its emulated HX711s to the same pins. Each value can also be given on the
 * compiler's command line instead (-DPURSER_LED_PIN=-1, PlatformIO's build_flags).
 */
#ifndef PURSER_CONFIG_H
#define PURSER_CONFIG_H

/* How many HX711 boards (one per pan) are wired: 1 or 2. The CHANNELS command can
 * lower the number in use at run time, never raise it above this. */
#ifndef PURSER_MAX_CHANNELS
#define PURSER_MAX_CHANNELS 2
#endif

/* Pan 0 (channel 0): HX711 DOUT (data) and PD_SCK (clock). */
#ifndef PURSER_CH0_DOUT_PIN
#define PURSER_CH0_DOUT_PIN 2
#endif
#ifndef PURSER_CH0_SCK_PIN
#define PURSER_CH0_SCK_PIN 3
#endif

/* Pan 1 (channel 1); ignored when PURSER_MAX_CHANNELS is 1. */
#ifndef PURSER_CH1_DOUT_PIN
#define PURSER_CH1_DOUT_PIN 4
#endif
#ifndef PURSER_CH1_SCK_PIN
#define PURSER_CH1_SCK_PIN 5
#endif

/* The HX711 RATE input of both boards (low: 10 samples/s, high: 80 samples/s), or -1
 * when RATE is strapped on the board; then give the strapped rate below. */
#ifndef PURSER_RATE_PIN
#define PURSER_RATE_PIN 6
#endif
#ifndef PURSER_FIXED_RATE
#define PURSER_FIXED_RATE 10
#endif

/* Status LED (13 is the Uno/Nano's own LED), or -1 for none. Steady: reading; fast
 * blink: an amplifier does not answer; off: powered down. */
#ifndef PURSER_LED_PIN
#define PURSER_LED_PIN 13
#endif

/* Serial speed. The tablet app expects 115200. */
#ifndef PURSER_BAUD
#define PURSER_BAUD 115200
#endif

/* Restart the board if the main loop ever stops for 2 s (1) or not (0). */
#ifndef PURSER_WATCHDOG
#define PURSER_WATCHDOG 1
#endif

#endif
