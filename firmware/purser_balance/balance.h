/*
 * The balance firmware's entry points, called from the sketch's setup() and loop().
 */
#ifndef PURSER_BALANCE_H
#define PURSER_BALANCE_H

#include <stdint.h>

/* Set in SRAM just before a RESET command restarts the board (SRAM survives it). */
extern uint32_t reset_marker;
#define PURSER_RESET_MARKER 0x52455345UL

void balance_setup(void);
void balance_loop(void);

#endif
