#include "hx711_sim.h"

#include <math.h>
#include <string.h>

#include <avr_ioport.h>
#include <sim_cycle_timers.h>
#include <sim_time.h>

#define POWER_DOWN_US 60

/* Drive state per port (B, C, D): simavr re-applies the internal pull-up to input pins
 * on every PORT write, which would overwrite an emulated DOUT level, so DOUT is given as
 * an "external" drive as well as raised on its IRQ. */
static struct {
    uint8_t mask, value;
} external['E' - 'A'];

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

void hx711_sim_seed(uint64_t seed)
{
    rng_state = seed ? seed : 0x9E3779B97F4A7C15ULL;
}

static uint64_t next_random(void)
{
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

static double gaussian(void)
{
    double u1 = ((next_random() >> 11) + 1.0) / 9007199254740993.0;
    double u2 = (next_random() >> 11) / 9007199254740992.0;
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

void hx711_sim_apply_external(avr_t *avr)
{
    char port;
    for (port = 'B'; port <= 'D'; port++) {
        avr_ioport_external_t e;
        memset(&e, 0, sizeof e);
        e.name = port;
        e.mask = external[port - 'A'].mask;
        e.value = external[port - 'A'].value;
        avr_ioctl(avr, AVR_IOCTL_IOPORT_SET_EXTERNAL(port), &e);
    }
}

/* Data-space address of PINB, PINC, PIND on the ATmega328P. */
static uint16_t pin_register(char port)
{
    return port == 'B' ? 0x23 : port == 'C' ? 0x26 : 0x29;
}

/* The level the MCU reads on DOUT. Also written straight into the PIN register: the
 * pin's IRQ only passes changes, and avr_reset() clears PINx behind its back. */
static void set_dout_level(hx711_sim *chip, int level)
{
    uint8_t bit = (uint8_t)(1u << chip->dout_bit);
    uint8_t *pin = &chip->avr->data[pin_register(chip->dout_port)];
    chip->dout_level = level;
    avr_raise_irq(chip->dout_irq, level ? 1 : 0);
    *pin = level ? (uint8_t)(*pin | bit) : (uint8_t)(*pin & ~bit);
}

static void drive_dout(hx711_sim *chip, int level)
{
    uint8_t bit = (uint8_t)(1u << chip->dout_bit);
    external[chip->dout_port - 'A'].mask |= bit;
    if (level)
        external[chip->dout_port - 'A'].value |= bit;
    else
        external[chip->dout_port - 'A'].value &= (uint8_t)~bit;
    hx711_sim_apply_external(chip->avr);
    set_dout_level(chip, level);
}

static void float_dout(hx711_sim *chip)
{
    uint8_t bit = (uint8_t)(1u << chip->dout_bit);
    external[chip->dout_port - 'A'].mask &= (uint8_t)~bit;
    external[chip->dout_port - 'A'].value &= (uint8_t)~bit;
    hx711_sim_apply_external(chip->avr);
    set_dout_level(chip, 1); /* the firmware's pull-up */
}

static int current_rate(const hx711_sim *chip)
{
    if (chip->forced_rate)
        return chip->forced_rate;
    return chip->rate_pin_high ? 80 : 10;
}

static uint32_t period_us(int rate) { return rate == 80 ? 12500 : 100000; }
static uint32_t settle_us(int rate) { return rate == 80 ? 50000 : 400000; }

static int32_t output_code(hx711_sim *chip, int gain)
{
    double counts;
    if (chip->saturate > 0)
        return 8388607;
    if (chip->saturate < 0)
        return -8388608;
    if (chip->mode == HX_RAW)
        counts = chip->raw;
    else
        counts = (chip->zero_counts + chip->grams * chip->counts_per_gram) * gain / 128.0;
    if (chip->noise_rms > 0)
        counts += chip->noise_rms * gaussian();
    counts = floor(counts + 0.5);
    if (counts > 8388607)
        return 8388607; /* the HX711 clamps out-of-range input */
    if (counts < -8388608)
        return -8388608;
    return (int32_t)counts;
}

static avr_cycle_count_t conversion_timer(avr_t *avr, avr_cycle_count_t when, void *param)
{
    hx711_sim *chip = (hx711_sim *)param;
    (void)avr;
    if (chip->wiring != HX_PRESENT || !chip->powered) {
        chip->timer_armed = 0;
        return 0;
    }
    /* A conversion that lands while the MCU is shifting the last one out is lost; a read
     * abandoned half-way (the MCU was reset) is simply overwritten, as on the chip. */
    int reading = chip->ready && chip->edges > 0 && chip->edges < 25 &&
                  chip->avr->cycle - chip->last_edge < avr_usec_to_cycles(chip->avr, 1000);
    if (!reading) {
        chip->latched = output_code(chip, chip->gain_next);
        chip->gain_latched = chip->gain_next;
        chip->edges = 0;
        chip->ready = 1;
        chip->conversions++;
        drive_dout(chip, 0);
    }
    chip->rate = current_rate(chip);
    return when + avr_usec_to_cycles(chip->avr, period_us(chip->rate));
}

static void schedule_first_conversion(hx711_sim *chip)
{
    avr_cycle_timer_cancel(chip->avr, conversion_timer, chip);
    chip->rate = current_rate(chip);
    avr_cycle_timer_register_usec(chip->avr, settle_us(chip->rate), conversion_timer, chip);
    chip->timer_armed = 1;
}

/* The chip starts from reset: gain A/128, no data, DOUT high until it has settled. */
static void chip_reset(hx711_sim *chip)
{
    chip->ready = 0;
    chip->edges = 0;
    chip->gain_next = 128;
    chip->resets++;
    drive_dout(chip, 1);
    if (chip->powered)
        schedule_first_conversion(chip);
}

static avr_cycle_count_t power_down_timer(avr_t *avr, avr_cycle_count_t when, void *param)
{
    hx711_sim *chip = (hx711_sim *)param;
    (void)avr;
    (void)when;
    if (chip->wiring == HX_PRESENT && chip->sck_high && chip->powered) {
        chip->powered = 0;
        chip->ready = 0;
        chip->power_downs++;
        avr_cycle_timer_cancel(chip->avr, conversion_timer, chip);
        chip->timer_armed = 0;
        drive_dout(chip, 1);
    }
    return 0;
}

static void sck_changed(struct avr_irq_t *irq, uint32_t value, void *param)
{
    hx711_sim *chip = (hx711_sim *)param;
    int high = value & 1;
    (void)irq;
    if (high == chip->sck_high)
        return;
    chip->sck_high = high;
    if (chip->wiring != HX_PRESENT)
        return;
    if (high) {
        avr_cycle_timer_register_usec(chip->avr, POWER_DOWN_US, power_down_timer, chip);
        if (!chip->powered || (!chip->ready && chip->edges == 0))
            return; /* no conversion to shift out */
        chip->edges++;
        chip->last_edge = chip->avr->cycle;
        if (chip->edges == 1)
            chip->read_started = chip->avr->cycle;
        if (chip->edges <= 24) {
            drive_dout(chip, (chip->latched >> (24 - chip->edges)) & 1);
            return;
        }
        if (chip->edges == 25) {
            chip->reads++;
            chip->read_cycles += chip->avr->cycle - chip->read_started;
            chip->ready = 0;
            drive_dout(chip, 1);
        }
        chip->gain_next = chip->edges == 26 ? 32 : chip->edges >= 27 ? 64 : 128;
    } else {
        avr_cycle_timer_cancel(chip->avr, power_down_timer, chip);
        if (!chip->powered) {
            chip->powered = 1;
            chip_reset(chip);
        }
    }
}

void hx711_sim_init(hx711_sim *chip, avr_t *avr, int index, char dout_port, int dout_bit,
                    char sck_port, int sck_bit)
{
    memset(chip, 0, sizeof *chip);
    chip->avr = avr;
    chip->index = index;
    chip->dout_port = dout_port;
    chip->dout_bit = (uint8_t)dout_bit;
    chip->sck_port = sck_port;
    chip->sck_bit = (uint8_t)sck_bit;
    chip->dout_irq = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(dout_port), dout_bit);
    chip->sck_irq = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(sck_port), sck_bit);
    avr_irq_register_notify(chip->sck_irq, sck_changed, chip);
    chip->wiring = HX_PRESENT;
    chip->mode = HX_RAW;
    chip->counts_per_gram = 430.0;
    chip->powered = 1;
    chip_reset(chip);
}

void hx711_sim_rearm(hx711_sim *chip)
{
    hx711_sim_apply_external(chip->avr);
    set_dout_level(chip, chip->dout_level);
    chip->sck_high = 0; /* the MCU's pins float after its reset: PD_SCK reads low */
    if (chip->wiring != HX_PRESENT)
        return;
    if (!chip->powered) {
        chip->powered = 1; /* PD_SCK went low: the chip wakes from power-down */
        chip_reset(chip);
        return;
    }
    avr_cycle_timer_register_usec(chip->avr, period_us(current_rate(chip)), conversion_timer, chip);
    chip->timer_armed = 1;
}

void hx711_sim_power_reset(hx711_sim *chip)
{
    if (chip->wiring != HX_PRESENT)
        return;
    chip->powered = !chip->sck_high;
    if (!chip->powered) {
        avr_cycle_timer_cancel(chip->avr, conversion_timer, chip);
        chip->timer_armed = 0;
        chip->ready = 0;
        drive_dout(chip, 1);
        return;
    }
    chip_reset(chip);
}

void hx711_sim_set_wiring(hx711_sim *chip, enum hx_wiring wiring)
{
    enum hx_wiring old = chip->wiring;
    chip->wiring = wiring;
    if (wiring == HX_PRESENT) {
        if (old != HX_PRESENT)
            hx711_sim_power_reset(chip); /* plugged in: it powers up from scratch */
        return;
    }
    avr_cycle_timer_cancel(chip->avr, conversion_timer, chip);
    avr_cycle_timer_cancel(chip->avr, power_down_timer, chip);
    chip->timer_armed = 0;
    chip->ready = 0;
    if (wiring == HX_ABSENT)
        float_dout(chip);
    else
        drive_dout(chip, 0);
}

void hx711_sim_rate_pin(hx711_sim *chip, int high)
{
    int before = current_rate(chip);
    chip->rate_pin_high = high;
    if (current_rate(chip) != before && chip->wiring == HX_PRESENT && chip->powered)
        schedule_first_conversion(chip); /* a new rate settles first */
}

void hx711_sim_force_rate(hx711_sim *chip, int rate)
{
    int before = current_rate(chip);
    chip->forced_rate = rate;
    if (current_rate(chip) != before && chip->wiring == HX_PRESENT && chip->powered)
        schedule_first_conversion(chip);
}
