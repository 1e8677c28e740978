#define _GNU_SOURCE
#include "uart_bridge.h"

#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <avr_uart.h>
#include <sim_io.h>

#define OUT_SIZE 4096 /* about 0.35 s at 115200 baud */
#define IN_SIZE 4096

struct uart_bridge {
    avr_t *avr;
    avr_irq_t *input;
    int master, slave;
    char path[64];
    char link[512];
    int xon;
    uint8_t out[OUT_SIZE];
    uint32_t out_head, out_tail;
    uint8_t in[IN_SIZE];
    uint32_t in_head, in_tail;
    uint32_t dropped;
    uint64_t sent, received;
    double ber_out, ber_in;   /* bit error probabilities: to the host, to the board */
    uint64_t rng, flipped;
};

static double uniform(uart_bridge *b)
{
    /* xorshift64*, its own stream: the noise of the cells stays as seeded */
    b->rng ^= b->rng >> 12;
    b->rng ^= b->rng << 25;
    b->rng ^= b->rng >> 27;
    return ((b->rng * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

static uint8_t corrupt(uart_bridge *b, uint8_t byte, double ber)
{
    int bit;
    if (ber <= 0)
        return byte;
    for (bit = 0; bit < 8; bit++) {
        if (uniform(b) < ber) {
            byte ^= (uint8_t)(1u << bit);
            b->flipped++;
        }
    }
    return byte;
}

void uart_bridge_bit_errors(uart_bridge *b, double to_host, double to_board, uint64_t seed)
{
    b->ber_out = to_host;
    b->ber_in = to_board;
    b->rng = seed ? seed : 0x2545F4914F6CDD1DULL;
}

uint64_t uart_bridge_flipped(const uart_bridge *b) { return b->flipped; }

static void feed_avr(uart_bridge *b)
{
    while (b->xon && b->in_tail != b->in_head) {
        uint8_t byte = corrupt(b, b->in[b->in_tail], b->ber_in);
        b->in_tail = (b->in_tail + 1) % IN_SIZE;
        b->received++;
        avr_raise_irq(b->input, byte); /* may signal XOFF at once */
    }
}

static void on_output(struct avr_irq_t *irq, uint32_t value, void *param)
{
    uart_bridge *b = (uart_bridge *)param;
    uint32_t next = (b->out_head + 1) % OUT_SIZE;
    (void)irq;
    if (b->master < 0 || next == b->out_tail) {
        b->dropped++;
        return;
    }
    b->out[b->out_head] = corrupt(b, (uint8_t)value, b->ber_out);
    b->out_head = next;
}

static void on_xon(struct avr_irq_t *irq, uint32_t value, void *param)
{
    uart_bridge *b = (uart_bridge *)param;
    (void)irq;
    (void)value;
    b->xon = 1;
    feed_avr(b);
}

static void on_xoff(struct avr_irq_t *irq, uint32_t value, void *param)
{
    uart_bridge *b = (uart_bridge *)param;
    (void)irq;
    (void)value;
    b->xon = 0;
}

uart_bridge *uart_bridge_attach(avr_t *avr, char uart)
{
    uart_bridge *b = calloc(1, sizeof *b);
    uint32_t flags = 0;
    if (!b)
        return NULL;
    b->avr = avr;
    b->master = b->slave = -1;
    b->xon = 1;
    b->rng = 0x2545F4914F6CDD1DULL;
    /* No echo of UART output on the console, and no real-time sleeping inside simavr
     * when the firmware polls the UART: the rig paces the simulation itself. */
    avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS(uart), &flags);
    flags &= ~(uint32_t)(AVR_UART_FLAG_STDIO | AVR_UART_FLAG_POLL_SLEEP);
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS(uart), &flags);
    b->input = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ(uart), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ(uart), UART_IRQ_OUTPUT), on_output, b);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ(uart), UART_IRQ_OUT_XON), on_xon, b);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ(uart), UART_IRQ_OUT_XOFF), on_xoff, b);
    return b;
}

const char *uart_bridge_open(uart_bridge *b, const char *link)
{
    struct termios raw;
    memset(&raw, 0, sizeof raw);
    cfmakeraw(&raw);
    cfsetispeed(&raw, B115200);
    cfsetospeed(&raw, B115200);
    if (openpty(&b->master, &b->slave, b->path, &raw, NULL) < 0)
        return NULL;
    /* The rig keeps the slave side open too, so the pty survives between host
     * connections instead of hanging up. */
    fcntl(b->master, F_SETFL, fcntl(b->master, F_GETFL) | O_NONBLOCK);
    fcntl(b->master, F_SETFD, FD_CLOEXEC);
    fcntl(b->slave, F_SETFD, FD_CLOEXEC);
    b->out_head = b->out_tail = 0;
    b->in_head = b->in_tail = 0;
    if (link && *link) {
        char tmp[600];
        snprintf(b->link, sizeof b->link, "%s", link);
        snprintf(tmp, sizeof tmp, "%s.tmp%d", link, (int)getpid());
        unlink(tmp);
        if (symlink(b->path, tmp) == 0)
            rename(tmp, link);
    }
    return b->path;
}

void uart_bridge_close(uart_bridge *b)
{
    if (b->master >= 0)
        close(b->master);
    if (b->slave >= 0)
        close(b->slave);
    b->master = b->slave = -1;
    b->path[0] = 0;
    if (b->link[0])
        unlink(b->link);
}

int uart_bridge_fd(const uart_bridge *b)
{
    return b->master;
}

void uart_bridge_service(uart_bridge *b)
{
    if (b->master < 0)
        return;
    /* AVR -> host */
    while (b->out_tail != b->out_head) {
        uint32_t end = b->out_head > b->out_tail ? b->out_head : OUT_SIZE;
        ssize_t n = write(b->master, b->out + b->out_tail, end - b->out_tail);
        if (n <= 0) {
            if (n < 0 && errno != EAGAIN && errno != EINTR)
                b->out_tail = b->out_head;
            break;
        }
        b->sent += (uint64_t)n;
        b->out_tail = (b->out_tail + (uint32_t)n) % OUT_SIZE;
    }
    /* The host is not reading: drop the oldest, as an adapter with no host would. */
    if ((b->out_head + OUT_SIZE - b->out_tail) % OUT_SIZE > OUT_SIZE / 2) {
        b->dropped += (b->out_head + OUT_SIZE - b->out_tail) % OUT_SIZE;
        b->out_tail = b->out_head;
    }
    /* host -> AVR */
    for (;;) {
        uint8_t buf[256];
        uint32_t room = (b->in_tail + IN_SIZE - b->in_head - 1) % IN_SIZE;
        ssize_t i, n;
        if (room == 0)
            break;
        n = read(b->master, buf, room < sizeof buf ? room : sizeof buf);
        if (n <= 0)
            break;
        for (i = 0; i < n; i++) {
            b->in[b->in_head] = buf[i];
            b->in_head = (b->in_head + 1) % IN_SIZE;
        }
    }
    feed_avr(b);
}

uint32_t uart_bridge_dropped(const uart_bridge *b) { return b->dropped; }
uint64_t uart_bridge_sent(const uart_bridge *b) { return b->sent; }
uint64_t uart_bridge_received(const uart_bridge *b) { return b->received; }
