#include "balance.h"

#include <Arduino.h>
#include <avr/sleep.h>
#include <avr/wdt.h>

#include "channels.h"
#include "commands.h"
#include "config.h"
#include "config_check.h"
#include "link.h"
#include "protocol.h"
#include "settings.h"
#include "version.h"

/* Kept across resets (not cleared at start-up): why the board restarted. */
uint8_t mcusr_at_boot __attribute__((section(".noinit")));
uint32_t reset_marker __attribute__((section(".noinit")));

/* Runs before main(): read and clear the reset flags, and stop a watchdog left running
 * by a watchdog reset before it can fire again. */
extern "C" void purser_early_init(void) __attribute__((naked, used, section(".init3")));
extern "C" void purser_early_init(void)
{
    mcusr_at_boot = MCUSR;
    MCUSR = 0;
    wdt_disable();
}

static uint8_t reset_cause(void)
{
    uint8_t cause;
    if (reset_marker == PURSER_RESET_MARKER)
        cause = PB_RESET_COMMAND;
    else if (mcusr_at_boot & _BV(PORF))
        cause = PB_RESET_POWER;
    else if (mcusr_at_boot & _BV(WDRF))
        cause = PB_RESET_WATCHDOG;
    else if (mcusr_at_boot & _BV(BORF))
        cause = PB_RESET_BROWNOUT;
    else if (mcusr_at_boot & _BV(EXTRF))
        cause = PB_RESET_EXTERNAL;
    else
        cause = PB_RESET_UNKNOWN; /* the bootloader cleared the flags */
    reset_marker = 0;
    return cause;
}

static void update_led(uint32_t now)
{
#if PURSER_LED_PIN >= 0
    bool on;
    if (!channels_powered())
        on = false;
    else if (channels_any_fault())
        on = (now / 100) & 1;
    else
        on = true;
    digitalWrite(PURSER_LED_PIN, on ? HIGH : LOW);
#else
    (void)now;
#endif
}

void balance_setup(void)
{
    pb_line line;
    uint8_t cause = reset_cause();
    uint8_t state;

    link_begin();
    state = settings_load();
#if PURSER_LED_PIN >= 0
    pinMode(PURSER_LED_PIN, OUTPUT);
#endif
    channels_begin(millis());
    pb_format_hello(&line, PURSER_FIRMWARE_VERSION, device_id, settings.channels, settings.rate, state, cause);
    link_send(line, true);
#if PURSER_WATCHDOG
    wdt_enable(WDTO_2S);
#endif
}

void balance_loop(void)
{
    static uint32_t last_ms;
    uint32_t now;
    const char *text;
    uint8_t len;
    bool too_long;

    wdt_reset();
    now = millis();
    /* Every byte sent wakes the CPU (the UART's interrupt); the work below needs doing
     * once per millisecond tick, or when a byte came in. */
    if (now == last_ms && !Serial.available()) {
        set_sleep_mode(SLEEP_MODE_IDLE);
        sleep_mode();
        return;
    }
    last_ms = now;
    /* Tares that ended are noted before the save that stores them can report done
     * (a tare that finds the offset unchanged has nothing to write and is done at once). */
    commands_poll_tares();
    commands_saved(settings_poll());
    if (!commands_busy() && link_can_reply()) {
        text = link_poll_line(&len, &too_long);
        if (text || too_long)
            commands_handle(text, len, too_long, now);
    }
    channels_poll(now);
    link_pump();
    update_led(now);

    /* Idle until the next interrupt (the 1 ms timer tick at the latest, or a byte in or
     * out): saves power, and lets the simulator skip ahead. */
    set_sleep_mode(SLEEP_MODE_IDLE);
    sleep_mode();
}
