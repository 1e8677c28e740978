/*
 * The pans: reading each HX711 when it has a conversion, noticing when one does not
 * answer (within a bounded time, never by waiting), taring, and sending data lines.
 */
#ifndef PURSER_CHANNELS_H
#define PURSER_CHANNELS_H

#include <stdint.h>

extern bool streaming;

void channels_begin(uint32_t now);

/* Read what is ready, send data or status lines, advance tares. Never blocks. */
void channels_poll(uint32_t now);

/* Apply settings.rate / settings.ch[c].gain / settings.channels to the hardware. */
void channels_apply_settings(uint32_t now);

void channels_power(bool on, uint32_t now);
bool channels_powered(void);

/* True while channel c's HX711 does not answer. */
bool channels_no_chip(uint8_t c);
bool channels_any_fault(void);

/* Start a tare averaging `samples` settled readings; PB_OK or an error code. */
uint8_t channels_start_tare(uint8_t c, uint8_t samples);
bool channels_taring(uint8_t c);
bool channels_any_taring(void);

/* Once per ended tare: true, with PB_OK (settings.ch[c].offset is set) or an error. */
bool channels_tare_result(uint8_t c, uint8_t *code);

#endif
