/*
 * UART0 of the simulated AVR bridged to a pseudo-terminal, so a host program opens it
 * like a USB serial adapter (pyserial: serial.Serial(path)).
 *
 * Runs in the rig's single thread: bytes from the AVR are queued and written to the pty
 * without blocking (dropped when nobody reads, as a real adapter drops them); bytes from
 * the pty are fed to the AVR only while its receive FIFO has room (XON/XOFF IRQs).
 * "Unplugging" closes the pty (the host's port dies); "plugging in" opens a new one.
 */
#ifndef PURSER_UART_BRIDGE_H
#define PURSER_UART_BRIDGE_H

#include <stdint.h>

#include <sim_avr.h>

typedef struct uart_bridge uart_bridge;

uart_bridge *uart_bridge_attach(avr_t *avr, char uart);

/* Opens a new pty; returns its path, or NULL. `link` (may be NULL) is a symlink kept
 * pointing at the current pty. */
const char *uart_bridge_open(uart_bridge *b, const char *link);
void uart_bridge_close(uart_bridge *b);
int uart_bridge_fd(const uart_bridge *b); /* the pty master, for poll(); -1 when closed */

/* Move bytes both ways without blocking. */
void uart_bridge_service(uart_bridge *b);

/* Line noise: each bit of each byte is flipped with probability `to_host` on its way to
 * the host and `to_board` on its way to the board (0: a clean cable). */
void uart_bridge_bit_errors(uart_bridge *b, double to_host, double to_board, uint64_t seed);
uint64_t uart_bridge_flipped(const uart_bridge *b);

uint32_t uart_bridge_dropped(const uart_bridge *b);
uint64_t uart_bridge_sent(const uart_bridge *b);
uint64_t uart_bridge_received(const uart_bridge *b);

#endif
