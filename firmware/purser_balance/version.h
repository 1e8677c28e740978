/* The firmware's version, reported in the hello line (major.minor.patch). */
#ifndef PURSER_VERSION_H
#define PURSER_VERSION_H
#define PURSER_FIRMWARE_VERSION "0.2.0"
#endif
