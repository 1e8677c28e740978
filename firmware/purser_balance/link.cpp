#include "link.h"

#include <Arduino.h>

#include "config.h"

#define QUEUE_SIZE 512
/* Replies are at most about 60 bytes. A command is read only when its reply and two
 * tare replies (which come unasked) would fit; data lines always leave room for the two
 * tare replies. So replies never get lost, and a burst of commands is answered at the
 * pace of the UART while data lines keep flowing. */
#define COMMAND_ROOM 300
#define DATA_RESERVE 120

static uint8_t queue[QUEUE_SIZE];
static uint16_t head, tail; /* bytes go in at head, out at tail */

static char command[PB_COMMAND_MAX + 1];
static uint8_t command_len;
static bool discarding;

void link_begin(void)
{
    Serial.begin(PURSER_BAUD);
    head = tail = 0;
    command_len = 0;
    discarding = false;
}

static uint16_t queued(void)
{
    return (uint16_t)((head + QUEUE_SIZE - tail) % QUEUE_SIZE);
}

bool link_send(const pb_line &line, bool reply)
{
    uint16_t room = QUEUE_SIZE - 1 - queued();
    uint8_t i;
    if (line.len == 0 || line.len > room || (!reply && (uint16_t)(line.len + DATA_RESERVE) > room))
        return false;
    for (i = 0; i < line.len; i++) {
        queue[head] = (uint8_t)line.text[i];
        head = (uint16_t)((head + 1) % QUEUE_SIZE);
    }
    return true;
}

bool link_can_reply(void)
{
    return QUEUE_SIZE - 1 - queued() >= COMMAND_ROOM;
}

void link_pump(void)
{
    while (tail != head && Serial.availableForWrite() > 0) {
        Serial.write(queue[tail]);
        tail = (uint16_t)((tail + 1) % QUEUE_SIZE);
    }
}

void link_flush(void)
{
    while (tail != head)
        link_pump();
    Serial.flush();
}

const char *link_poll_line(uint8_t *len, bool *too_long)
{
    *too_long = false;
    while (Serial.available() > 0) {
        int c = Serial.read();
        if (c == '\n' || c == '\r') {
            if (discarding) {
                discarding = false;
                command_len = 0;
                *too_long = true;
                return nullptr;
            }
            command[command_len] = 0;
            *len = command_len;
            command_len = 0;
            return command;
        }
        if (c == '$') {
            /* A '$' always starts a command: a line cut short before it (a host that
             * died mid-write, bytes lost in an overrun) is dropped, not glued on. */
            command_len = 0;
            discarding = false;
        }
        if (discarding)
            continue;
        if (command_len == PB_COMMAND_MAX) {
            discarding = true;
            continue;
        }
        command[command_len++] = (char)c;
    }
    return nullptr;
}
