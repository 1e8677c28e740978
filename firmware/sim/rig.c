/*
 * purser-rig: runs the balance firmware's ELF in simavr (ATmega328P, 16 MHz) with its
 * UART on a pseudo-terminal and emulated HX711s on the pins config.h names, controlled
 * by a test through stdin/stdout, one command per line, one reply line per command.
 *
 *   purser-rig [--eeprom FILE] [--link PATH] [--seed N] [--speed X] FIRMWARE.elf
 *
 * First line on stdout: "ready pty=/dev/pts/N". Replies start with "ok" or "error".
 * The simulation is paced to run no faster than real time (--speed 0: as fast as it
 * can). Commands (channel: 0 or 1; see README.md in this folder):
 *
 *   raw CH COUNTS          the HX711 outputs exactly COUNTS (clamped to 24 bits)
 *   grams CH G             load in grams, through the cell model below
 *   cell CH ZERO CPG       cell model: ZERO counts at no load, CPG counts per gram at
 *                          gain 128 (negative: a reversed cell)
 *   noise CH RMS           Gaussian noise, RMS counts
 *   seed N                 noise generator seed
 *   rate CH|all 10|80|pin  strap the RATE input, or follow the firmware's RATE pin
 *   saturate CH high|low|off
 *   unplug CH | replug CH | stuck CH   amplifier gone / back (powers up) / DOUT shorted low
 *   glitch CH              the amplifier's supply dips: it resets by itself
 *   reset                  reset button / DTR (SRAM and EEPROM kept)
 *   reset-during-read CH EDGE   the same, when the MCU has clocked EDGE bits of a
 *                          reading out of CH (0: a conversion waits, DOUT low, unread)
 *   power-cycle            board and amplifiers lose power (EEPROM kept)
 *   usb-unplug | usb-replug [hold]   the pty goes away / a new one appears and the
 *                          board powers up (hold: only at the next power-cycle, so the
 *                          host can open the port first)
 *   eeprom-read ADDR N | eeprom-write ADDR HEX | eeprom-erase | eeprom-save
 *   eeprom-stuck ADDR VALUE | eeprom-stuck off   a worn cell that always reads VALUE
 *   bit-errors P [Q] [SEED]   flip each bit sent to the host with probability P (and each
 *                          bit sent to the board with Q): a noisy cable
 *   wait MS                reply once MS more milliseconds have been simulated
 *   time | status | quit
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <avr_eeprom.h>
#include <avr_extint.h>
#include <avr_ioport.h>
#include <sim_avr.h>
#include <sim_elf.h>
#include <sim_time.h>

#include "../purser_balance/config.h"
#include "hx711_sim.h"
#include "uart_bridge.h"

#define F_CPU 16000000UL
#define EEPROM_SIZE 1024
#define SRAM_START 0x100
#define MCUSR_ADDR 0x54 /* data-space address of MCUSR on the ATmega328P */
/* MCUSR flags */
#define PORF 0x01
#define EXTRF 0x02
#define WDRF 0x08
#define BATCH_US 1000

static avr_t *avr;
static uart_bridge *bridge;
static hx711_sim chips[PURSER_MAX_CHANNELS];
static FILE *ctl; /* replies; stdout itself goes to stderr (simavr prints there) */
static const char *eeprom_path, *link_path;
static double speed = 1.0;
static int running = 1, quit;
static volatile sig_atomic_t stop_signal;

/* Resets: who asked, and whether SRAM survives (it does, except on power loss). */
static void (*core_reset)(avr_t *);
/* A worn EEPROM cell: whatever the firmware writes there, it reads back this value. */
static int stuck_address = -1;
static uint8_t stuck_value;
static uint8_t *eeprom_bytes;

static int rig_reset_kind; /* 0: the firmware's own (watchdog); else the MCUSR flags to set */
static int reset_pending;
static uint8_t sram_shadow[0x900];
static uint32_t mcu_resets, watchdog_resets;

/* Pacing: wall-clock time that corresponds to simulated cycle `origin_cycle`. */
static avr_cycle_count_t origin_cycle;
static double origin_wall;
static uint64_t wait_until_cycle;
static int waiting;
/* Reset the MCU when channel reset_read_channel's amplifier has had reset_read_edge
 * PD_SCK edges of a waiting conversion (0: the conversion waits, not yet touched). */
static int reset_read_channel = -1, reset_read_edge;

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void reply(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(ctl, fmt, ap);
    va_end(ap);
    fputc('\n', ctl);
    fflush(ctl);
}

#define FAIL(...)            \
    do {                     \
        reply(__VA_ARGS__);  \
        return;              \
    } while (0)

static double sim_ms(void)
{
    return avr->cycle * 1000.0 / F_CPU;
}

/* --------------------------------------------------------------------- pins */

static void arduino_pin(int pin, char *port, int *bit)
{
    if (pin <= 7) {
        *port = 'D';
        *bit = pin;
    } else if (pin <= 13) {
        *port = 'B';
        *bit = pin - 8;
    } else {
        *port = 'C';
        *bit = pin - 14;
    }
}

#if PURSER_RATE_PIN >= 0
static void rate_pin_changed(struct avr_irq_t *irq, uint32_t value, void *param)
{
    int c;
    (void)irq;
    (void)param;
    for (c = 0; c < PURSER_MAX_CHANNELS; c++)
        hx711_sim_rate_pin(&chips[c], value & 1);
}
#endif

/* --------------------------------------------------------------------- EEPROM */

static void eeprom_access(int set, uint8_t *data, uint16_t offset, uint32_t size)
{
    avr_eeprom_desc_t d;
    d.ee = data;
    d.offset = offset;
    d.size = size;
    avr_ioctl(avr, set ? AVR_IOCTL_EEPROM_SET : AVR_IOCTL_EEPROM_GET, &d);
    if (!set && d.ee != data)
        memcpy(data, d.ee, size); /* GET hands back a pointer into the simulator */
}

static int eeprom_save(void)
{
    uint8_t data[EEPROM_SIZE];
    FILE *f;
    if (!eeprom_path)
        return 0;
    eeprom_access(0, data, 0, EEPROM_SIZE);
    f = fopen(eeprom_path, "wb");
    if (!f || fwrite(data, 1, EEPROM_SIZE, f) != EEPROM_SIZE) {
        if (f)
            fclose(f);
        return -1;
    }
    return fclose(f);
}

static void eeprom_load(void)
{
    uint8_t data[EEPROM_SIZE];
    FILE *f;
    memset(data, 0xFF, sizeof data); /* an erased EEPROM */
    if (eeprom_path && (f = fopen(eeprom_path, "rb")) != NULL) {
        size_t n = fread(data, 1, EEPROM_SIZE, f);
        (void)n;
        fclose(f);
    }
    eeprom_access(1, data, 0, EEPROM_SIZE);
}

/* --------------------------------------------------------------------- resets */

/* Called by simavr inside avr_reset(), after it cleared all of data space. */
static void on_core_reset(avr_t *a)
{
    size_t sram = (size_t)(a->ramend + 1 - SRAM_START);
    if (core_reset)
        core_reset(a);
    if (rig_reset_kind != PORF && sram <= sizeof sram_shadow)
        memcpy(a->data + SRAM_START, sram_shadow, sram); /* SRAM survives a reset */
    a->data[MCUSR_ADDR] = (uint8_t)(rig_reset_kind ? rig_reset_kind : WDRF);
    if (!rig_reset_kind)
        watchdog_resets++;
    mcu_resets++;
    reset_pending = 1; /* simavr clears the cycle timers next: re-arm the chips after */
}

static void after_reset(void)
{
    int c;
    /* With EICRA at its reset value simavr polls INT0/INT1 (D2/D3) every few cycles
     * while they are low, to emulate level-triggered interrupts the firmware never
     * enables; that polling alone took most of the rig's CPU time. simavr turns it
     * back on at every reset. */
    avr_extint_set_strict_lvl_trig(avr, 0, 0);
    avr_extint_set_strict_lvl_trig(avr, 1, 0);
    reset_pending = 0;
    rig_reset_kind = 0;
    for (c = 0; c < PURSER_MAX_CHANNELS; c++)
        hx711_sim_rearm(&chips[c]);
}

static void reset_mcu(int kind)
{
    rig_reset_kind = kind;
    avr_reset(avr);
    after_reset();
}

static void power_cycle(void)
{
    int c;
    for (c = 0; c < PURSER_MAX_CHANNELS; c++)
        hx711_sim_power_reset(&chips[c]);
    reset_mcu(PORF);
}

/* --------------------------------------------------------------------- commands */

static int channel_arg(const char *text, int *c)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (!*text || *end || v < 0 || v >= PURSER_MAX_CHANNELS)
        return -1;
    *c = (int)v;
    return 0;
}

static int number_arg(const char *text, double *v)
{
    char *end;
    if (!*text)
        return -1;
    *v = strtod(text, &end);
    return *end ? -1 : 0;
}

/* A whole number (decimal or 0x hex), or -1 when missing or malformed. */
static long long_arg(const char *text)
{
    char *end;
    long v;
    if (!*text)
        return -1;
    v = strtol(text, &end, 0);
    return *end ? -1 : v;
}

static const char *wiring_name(enum hx_wiring w)
{
    return w == HX_PRESENT ? "present" : w == HX_ABSENT ? "absent" : "stuck-low";
}

static uint64_t slept_cycles;

static void status(void)
{
    char buf[2048];
    int c, n;
    avr_ioport_state_t state;
    n = snprintf(buf, sizeof buf, "ok ms=%.3f running=%d pty=%s resets=%u watchdog_resets=%u "
                 "sent=%llu received=%llu dropped=%u flipped=%llu state=%d asleep=%.1f%%",
                 sim_ms(), running, uart_bridge_fd(bridge) >= 0 ? "open" : "closed", mcu_resets,
                 watchdog_resets, (unsigned long long)uart_bridge_sent(bridge),
                 (unsigned long long)uart_bridge_received(bridge), uart_bridge_dropped(bridge),
                 (unsigned long long)uart_bridge_flipped(bridge), avr->state,
                 avr->cycle ? 100.0 * slept_cycles / avr->cycle : 0.0);
    for (c = 0; c < PURSER_MAX_CHANNELS; c++) {
        const hx711_sim *h = &chips[c];
        n += snprintf(buf + n, sizeof buf - n,
                      " ch%d=%s,powered=%d,gain=%d,rate=%d,conversions=%u,reads=%u,power_downs=%u,resets=%u,read_us=%.0f",
                      c, wiring_name(h->wiring), h->powered, h->gain_next, h->rate, h->conversions, h->reads,
                      h->power_downs, h->resets,
                      h->reads ? h->read_cycles * 1e6 / F_CPU / h->reads : 0.0);
    }
    if (avr_ioctl(avr, AVR_IOCTL_IOPORT_GETSTATE('D'), &state) == 0)
        snprintf(buf + n, sizeof buf - n, " portd=%02x ddrd=%02x", (unsigned)state.port, (unsigned)state.ddr);
    reply("%s", buf);
}

static void command(char *line)
{
    char *argv[8];
    int argc = 0, c;
    double v;
    char *save = NULL, *tok;
    for (tok = strtok_r(line, " \t\r\n", &save); tok && argc < 8; tok = strtok_r(NULL, " \t\r\n", &save))
        argv[argc++] = tok;
    if (argc == 0)
        return;
#define ARG(i) (argc > (i) ? argv[i] : "")

    if (!strcmp(argv[0], "quit")) {
        quit = 1;
        reply("ok bye");
    } else if (!strcmp(argv[0], "time")) {
        reply("ok ms=%.3f", sim_ms());
    } else if (!strcmp(argv[0], "status")) {
        status();
    } else if (!strcmp(argv[0], "wait")) {
        if (number_arg(ARG(1), &v) || v < 0)
            FAIL("error usage: wait MS");
        if (!running)
            FAIL("error the board is unplugged");
        wait_until_cycle = avr->cycle + (uint64_t)(v * F_CPU / 1000.0);
        waiting = 1; /* replied when reached */
    } else if (!strcmp(argv[0], "bit-errors")) {
        double q = 0;
        if (number_arg(ARG(1), &v) || v < 0 || v > 0.5 || (argc > 2 && (number_arg(ARG(2), &q) || q < 0 || q > 0.5)))
            FAIL("error usage: bit-errors P [Q] [SEED] (probabilities 0 to 0.5)");
        uart_bridge_bit_errors(bridge, v, q, argc > 3 ? strtoull(ARG(3), NULL, 0) : 0);
        reply("ok");
    } else if (!strcmp(argv[0], "raw")) {
        if (channel_arg(ARG(1), &c) || number_arg(ARG(2), &v))
            FAIL("error usage: raw CH COUNTS");
        chips[c].mode = HX_RAW;
        chips[c].raw = v > 8388607 ? 8388607 : v < -8388608 ? -8388608 : (int32_t)v;
        reply("ok");
    } else if (!strcmp(argv[0], "grams")) {
        if (channel_arg(ARG(1), &c) || number_arg(ARG(2), &v))
            FAIL("error usage: grams CH GRAMS");
        chips[c].mode = HX_GRAMS;
        chips[c].grams = v;
        reply("ok");
    } else if (!strcmp(argv[0], "cell")) {
        double cpg;
        if (channel_arg(ARG(1), &c) || number_arg(ARG(2), &v) || number_arg(ARG(3), &cpg))
            FAIL("error usage: cell CH ZERO_COUNTS COUNTS_PER_GRAM");
        chips[c].zero_counts = v;
        chips[c].counts_per_gram = cpg;
        reply("ok");
    } else if (!strcmp(argv[0], "noise")) {
        if (channel_arg(ARG(1), &c) || number_arg(ARG(2), &v) || v < 0)
            FAIL("error usage: noise CH RMS_COUNTS");
        chips[c].noise_rms = v;
        reply("ok");
    } else if (!strcmp(argv[0], "seed")) {
        if (number_arg(ARG(1), &v))
            FAIL("error usage: seed N");
        hx711_sim_seed((uint64_t)v);
        reply("ok");
    } else if (!strcmp(argv[0], "rate")) {
        int rate, all = !strcmp(ARG(1), "all");
        if ((!all && channel_arg(ARG(1), &c)) || !*ARG(2))
            FAIL("error usage: rate CH|all 10|80|pin");
        rate = !strcmp(ARG(2), "pin") ? 0 : atoi(ARG(2));
        if (rate != 0 && rate != 10 && rate != 80)
            FAIL("error usage: rate CH|all 10|80|pin");
        for (int i = 0; i < PURSER_MAX_CHANNELS; i++)
            if (all || i == c)
                hx711_sim_force_rate(&chips[i], rate);
        reply("ok");
    } else if (!strcmp(argv[0], "saturate")) {
        if (channel_arg(ARG(1), &c) || !*ARG(2))
            FAIL("error usage: saturate CH high|low|off");
        chips[c].saturate = !strcmp(ARG(2), "high") ? 1 : !strcmp(ARG(2), "low") ? -1 : 0;
        reply("ok");
    } else if (!strcmp(argv[0], "unplug") || !strcmp(argv[0], "replug") || !strcmp(argv[0], "stuck")) {
        if (channel_arg(ARG(1), &c))
            FAIL("error usage: %s CH", argv[0]);
        hx711_sim_set_wiring(&chips[c], argv[0][0] == 'u' ? HX_ABSENT : argv[0][0] == 'r' ? HX_PRESENT
                                                                                          : HX_STUCK_LOW);
        reply("ok");
    } else if (!strcmp(argv[0], "glitch")) {
        if (channel_arg(ARG(1), &c))
            FAIL("error usage: glitch CH");
        hx711_sim_power_reset(&chips[c]);
        reply("ok");
    } else if (!strcmp(argv[0], "reset")) {
        if (!running)
            FAIL("error the board is unplugged");
        reset_mcu(EXTRF);
        reply("ok");
    } else if (!strcmp(argv[0], "reset-during-read")) {
        long edge = long_arg(ARG(2));
        if (channel_arg(ARG(1), &c) || edge < 0 || edge > 24)
            FAIL("error usage: reset-during-read CH EDGE (0-24)");
        if (!running)
            FAIL("error the board is unplugged");
        reset_read_channel = c;
        reset_read_edge = (int)edge;
        wait_until_cycle = UINT64_MAX; /* replied once it happened, not by the clock */
        waiting = 1;
    } else if (!strcmp(argv[0], "power-cycle")) {
        if (uart_bridge_fd(bridge) < 0)
            FAIL("error the board is unplugged");
        power_cycle();
        if (!running) { /* plugged in with "hold": power comes now */
            running = 1;
            origin_cycle = avr->cycle;
            origin_wall = wall_now();
        }
        reply("ok");
    } else if (!strcmp(argv[0], "usb-unplug")) {
        uart_bridge_close(bridge);
        running = 0;
        reply("ok");
    } else if (!strcmp(argv[0], "usb-replug")) {
        const char *path;
        if (uart_bridge_fd(bridge) >= 0)
            FAIL("error the board is plugged in");
        path = uart_bridge_open(bridge, link_path);
        if (!path)
            FAIL("error cannot open a pty: %s", strerror(errno));
        if (strcmp(ARG(1), "hold") != 0) {
            power_cycle();
            running = 1;
            origin_cycle = avr->cycle;
            origin_wall = wall_now();
        }
        reply("ok pty=%s", path);
    } else if (!strcmp(argv[0], "eeprom-read")) {
        uint8_t data[EEPROM_SIZE];
        char hex[2 * EEPROM_SIZE + 1];
        long addr = long_arg(ARG(1)), n = long_arg(ARG(2));
        if (addr < 0 || n < 1 || addr + n > EEPROM_SIZE)
            FAIL("error usage: eeprom-read ADDR N (within %d bytes)", EEPROM_SIZE);
        eeprom_access(0, data, 0, EEPROM_SIZE);
        for (long i = 0; i < n; i++)
            sprintf(hex + 2 * i, "%02x", data[addr + i]);
        reply("ok %s", hex);
    } else if (!strcmp(argv[0], "eeprom-write")) {
        uint8_t data[EEPROM_SIZE];
        long addr = long_arg(ARG(1));
        const char *hexbytes = ARG(2);
        size_t len = strlen(hexbytes);
        if (addr < 0 || len == 0 || len % 2 || addr + (long)len / 2 > EEPROM_SIZE)
            FAIL("error usage: eeprom-write ADDR HEXBYTES");
        for (size_t i = 0; i < len / 2; i++) {
            unsigned byte;
            if (sscanf(hexbytes + 2 * i, "%2x", &byte) != 1)
                FAIL("error usage: eeprom-write ADDR HEXBYTES");
            data[i] = (uint8_t)byte;
        }
        eeprom_access(1, data, (uint16_t)addr, (uint32_t)(len / 2));
        reply("ok");
    } else if (!strcmp(argv[0], "eeprom-erase")) {
        uint8_t data[EEPROM_SIZE];
        memset(data, 0xFF, sizeof data);
        eeprom_access(1, data, 0, EEPROM_SIZE);
        reply("ok");
    } else if (!strcmp(argv[0], "eeprom-stuck")) {
        long addr = long_arg(ARG(1)), value = long_arg(ARG(2));
        if (!strcmp(ARG(1), "off")) {
            stuck_address = -1;
            reply("ok");
            return;
        }
        if (addr < 0 || addr >= EEPROM_SIZE || value < 0 || value > 255)
            FAIL("error usage: eeprom-stuck ADDR VALUE | eeprom-stuck off");
        stuck_value = (uint8_t)value;
        stuck_address = (int)addr;
        eeprom_bytes[addr] = stuck_value;
        reply("ok");
    } else if (!strcmp(argv[0], "eeprom-save")) {
        if (eeprom_save() < 0)
            FAIL("error cannot write %s: %s", eeprom_path, strerror(errno));
        reply("ok");
    } else {
        reply("error unknown command %s", argv[0]);
    }
#undef ARG
}

/* --------------------------------------------------------------------- main loop */

static char input[4096];
static size_t input_len;
static int stdin_closed;

static void read_commands(void)
{
    ssize_t n = read(STDIN_FILENO, input + input_len, sizeof input - 1 - input_len);
    char *nl;
    if (n <= 0) {
        if (n == 0 || (errno != EAGAIN && errno != EINTR))
            stdin_closed = 1; /* the test went away: finish what it asked, then stop */
        return;
    }
    input_len += (size_t)n;
    while (!waiting && (nl = memchr(input, '\n', input_len)) != NULL) {
        size_t len = (size_t)(nl - input) + 1;
        *nl = 0;
        command(input);
        memmove(input, input + len, input_len - len);
        input_len -= len;
    }
    if (input_len == sizeof input - 1)
        input_len = 0; /* an absurd line: drop it */
}

static void run_commands_pending(void)
{
    char *nl;
    while (!waiting && !quit && (nl = memchr(input, '\n', input_len)) != NULL) {
        size_t len = (size_t)(nl - input) + 1;
        *nl = 0;
        command(input);
        memmove(input, input + len, input_len - len);
        input_len -= len;
    }
}

static void run_batch(void)
{
    avr_cycle_count_t target = avr->cycle + avr_usec_to_cycles(avr, BATCH_US);
    while (avr->cycle < target) {
        int state = avr_run(avr);
        if (stuck_address >= 0 && eeprom_bytes[stuck_address] != stuck_value)
            eeprom_bytes[stuck_address] = stuck_value;
        if (reset_pending)
            after_reset();
        if (reset_read_channel >= 0 && chips[reset_read_channel].ready &&
            chips[reset_read_channel].edges == reset_read_edge) {
            reset_read_channel = -1;
            reset_mcu(EXTRF);
            waiting = 0;
            reply("ok ms=%.3f", sim_ms());
            run_commands_pending();
        }
        if (state == cpu_Done || state == cpu_Crashed) {
            fprintf(stderr, "purser-rig: the firmware stopped (simavr state %d) at %.3f ms; resetting it\n",
                    state, sim_ms());
            avr->state = cpu_Running;
            reset_mcu(0);
        }
    }
    if ((size_t)(avr->ramend + 1 - SRAM_START) <= sizeof sram_shadow)
        memcpy(sram_shadow, avr->data + SRAM_START, avr->ramend + 1 - SRAM_START);
}

/* simavr's own "sleep" would usleep() in real time inside avr_run(); the rig paces the
 * whole simulation instead, so the core just skips ahead. */
static void no_sleep(avr_t *a, avr_cycle_count_t how_long)
{
    (void)a;
    slept_cycles += how_long;
}

static void on_signal(int sig)
{
    stop_signal = sig;
}

static int usage(void)
{
    fprintf(stderr, "usage: purser-rig [--eeprom FILE] [--link PATH] [--seed N] [--speed X] FIRMWARE.elf\n");
    return 2;
}

int main(int argc, char **argv)
{
    elf_firmware_t fw;
    const char *elf = NULL, *path;
    int i, c;

    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--eeprom") && i + 1 < argc)
            eeprom_path = argv[++i];
        else if (!strcmp(argv[i], "--link") && i + 1 < argc)
            link_path = argv[++i];
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            hx711_sim_seed(strtoull(argv[++i], NULL, 0));
        else if (!strcmp(argv[i], "--speed") && i + 1 < argc)
            speed = atof(argv[++i]);
        else if (argv[i][0] == '-')
            return usage();
        else
            elf = argv[i];
    }
    if (!elf)
        return usage();

    /* Replies go to the real stdout; anything simavr prints goes to stderr. */
    ctl = fdopen(dup(STDOUT_FILENO), "w");
    dup2(STDERR_FILENO, STDOUT_FILENO);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    signal(SIGPIPE, SIG_IGN);

    memset(&fw, 0, sizeof fw);
    if (elf_read_firmware(elf, &fw) != 0) {
        fprintf(stderr, "purser-rig: cannot read firmware %s\n", elf);
        return 1;
    }
    strcpy(fw.mmcu, "atmega328p");
    fw.frequency = F_CPU;
    avr = avr_make_mcu_by_name(fw.mmcu);
    if (!avr || avr_init(avr) != 0) {
        fprintf(stderr, "purser-rig: simavr has no ATmega328P\n");
        return 1;
    }
    avr_load_firmware(avr, &fw);
    avr->sleep = no_sleep;
    core_reset = avr->reset;
    avr->reset = on_core_reset;

    eeprom_load();
    {
        avr_eeprom_desc_t d = {.ee = NULL, .offset = 0, .size = EEPROM_SIZE};
        avr_ioctl(avr, AVR_IOCTL_EEPROM_GET, &d);
        eeprom_bytes = d.ee; /* simavr's own array */
    }
    bridge = uart_bridge_attach(avr, '0');
    for (c = 0; c < PURSER_MAX_CHANNELS; c++) {
        static const int dout[2] = {PURSER_CH0_DOUT_PIN, PURSER_CH1_DOUT_PIN};
        static const int sck[2] = {PURSER_CH0_SCK_PIN, PURSER_CH1_SCK_PIN};
        char dport, sport;
        int dbit, sbit;
        arduino_pin(dout[c], &dport, &dbit);
        arduino_pin(sck[c], &sport, &sbit);
        hx711_sim_init(&chips[c], avr, c, dport, dbit, sport, sbit);
#if PURSER_RATE_PIN < 0
        hx711_sim_force_rate(&chips[c], PURSER_FIXED_RATE);
#endif
    }
#if PURSER_RATE_PIN >= 0
    {
        char rport;
        int rbit;
        arduino_pin(PURSER_RATE_PIN, &rport, &rbit);
        avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(rport), rbit), rate_pin_changed, NULL);
    }
#endif
    path = uart_bridge_open(bridge, link_path);
    if (!path) {
        fprintf(stderr, "purser-rig: cannot open a pty: %s\n", strerror(errno));
        return 1;
    }
    power_cycle(); /* start as from power-on: MCUSR says so */

    fcntl(STDIN_FILENO, F_SETFL, fcntl(STDIN_FILENO, F_GETFL) | O_NONBLOCK);
    reply("ready pty=%s", path);

    origin_cycle = avr->cycle;
    origin_wall = wall_now();
    while (!quit && !stop_signal && !(stdin_closed && !waiting && !memchr(input, '\n', input_len))) {
        struct pollfd fds[2];
        int nfds = 1, timeout_ms = 0;
        if (running) {
            run_batch();
            uart_bridge_service(bridge);
            if (waiting && avr->cycle >= wait_until_cycle) {
                waiting = 0;
                reply("ok ms=%.3f", sim_ms());
                run_commands_pending();
            }
            if (speed > 0) {
                double sim_s = (avr->cycle - origin_cycle) / (double)F_CPU / speed;
                double ahead = sim_s - (wall_now() - origin_wall);
                if (ahead > 0)
                    timeout_ms = (int)(ahead * 1000);
                else if (ahead < -0.2) {
                    /* Running slower than real time (a busy machine): do not try to catch up. */
                    origin_cycle = avr->cycle;
                    origin_wall = wall_now();
                }
            }
        } else {
            timeout_ms = 50;
        }
        fds[0].fd = STDIN_FILENO;
        fds[0].events = POLLIN;
        if (uart_bridge_fd(bridge) >= 0) {
            fds[1].fd = uart_bridge_fd(bridge);
            fds[1].events = POLLIN;
            nfds = 2;
        }
        if (stdin_closed)
            fds[0].fd = -1; /* poll() skips it */
        if (poll(fds, (nfds_t)nfds, timeout_ms) > 0) {
            if (fds[0].revents & (POLLIN | POLLHUP))
                read_commands();
            if (nfds == 2 && (fds[1].revents & POLLIN))
                uart_bridge_service(bridge);
        }
    }
    if (eeprom_save() < 0)
        fprintf(stderr, "purser-rig: cannot save EEPROM to %s: %s\n", eeprom_path, strerror(errno));
    uart_bridge_close(bridge);
    return 0;
}
