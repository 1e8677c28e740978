/*
 * Purser booty balance: one or two load cells on HX711 amplifiers, read by an Arduino
 * Uno/Nano (ATmega328P) and reported to the Purser tablet app over USB serial.
 *
 * Wiring, building, flashing and the serial protocol: hardware.md at the top of the
 * Purser repository. Pins and options: config.h in this folder.
 *
 * Open the Serial Monitor at 115200 baud with "Both NL & CR" to watch it: it greets with
 * a $HELLO line, then streams $D data lines. Type "info", "stream 0", "tare 0" ...
 */
#include "balance.h"

void setup()
{
    balance_setup();
}

void loop()
{
    balance_loop();
}
