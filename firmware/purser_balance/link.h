/*
 * The serial link to the tablet: whole lines out through a queue that never blocks the
 * main loop, command lines in with over-long ones discarded.
 */
#ifndef PURSER_LINK_H
#define PURSER_LINK_H

#include <stdint.h>

#include "protocol.h"

void link_begin(void);

/* Queue a finished line. A reply always fits (room is kept for it); a data line is
 * dropped when the queue is that full (returns false; its sequence number is used up,
 * so the host sees the gap). */
bool link_send(const pb_line &line, bool reply);

/* True when a command may be read: its reply is sure to fit. While replies pile up
 * faster than the UART sends them (a flood of short garbage lines), commands wait in
 * the serial buffer instead of losing their replies. */
bool link_can_reply(void);

/* Move queued bytes into the UART without ever waiting for it. */
void link_pump(void);

/* Wait until everything queued is sent (before a reset). */
void link_flush(void);

/* A complete command line (NUL-terminated) or nullptr. *too_long is set instead when a
 * line longer than PB_COMMAND_MAX ended: its bytes were discarded. A '$' starts a new
 * line: whatever came before it on the same line is dropped without a reply. */
const char *link_poll_line(uint8_t *len, bool *too_long);

#endif
