/*
 * Carrying out commands from the tablet and sending their replies. A command that
 * changes a stored setting is answered once the setting is safely in EEPROM; until
 * then no further command is read (they wait in the serial buffer).
 */
#ifndef PURSER_COMMANDS_H
#define PURSER_COMMANDS_H

#include <stdint.h>

/* True while a reply waits for a save: do not feed the next command yet. */
bool commands_busy(void);

/* One received line (too_long: a line that was discarded for its length). */
void commands_handle(const char *text, uint8_t len, bool too_long, uint32_t now);

/* Call with each result of settings_poll(). */
void commands_saved(uint8_t save_result);

/* Report tares that ended (errors at once; successes once saved). */
void commands_poll_tares(void);

#endif
