/*
 * Host-side unit tests of the firmware's protocol code (purser_balance/protocol.c),
 * compiled with the host's gcc and run against firmware/protocol-vectors.txt:
 *   crc    the CRC-16/CCITT-FALSE of a text
 *   dev    every line the balance may send is produced exactly from its fields
 *   cmd    what the parser makes of a command line (or which error it replies)
 *   enc    the same, for lines in the host encoder's form
 *   grams  grams from raw counts, offset and factor, as printed
 * Usage: test_protocol VECTORS_FILE; prints one line per failure, exits 1 on any.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../purser_balance/protocol.h"

static int failures, checked;

static void fail(int lineno, const char *what, const char *got, const char *want)
{
    failures++;
    fprintf(stderr, "protocol-vectors.txt:%d: %s\n  got:  %s\n  want: %s\n", lineno, what, got, want);
}

/* Undo the vector file's escapes; returns the length. */
static size_t unescape(const char *in, char *out)
{
    size_t n = 0;
    while (*in) {
        if (*in == '\\') {
            in++;
            switch (*in) {
            case 'x': {
                char hex[3] = {in[1], in[2], 0};
                out[n++] = (char)strtol(hex, NULL, 16);
                in += 3;
                continue;
            }
            case 't': out[n++] = '\t'; break;
            case 'r': out[n++] = '\r'; break;
            case 'n': out[n++] = '\n'; break;
            default: out[n++] = *in; break;
            }
            in++;
            continue;
        }
        out[n++] = *in++;
    }
    out[n] = 0;
    return n;
}

/* The value of key=... in an expectation ("" if absent); `text=` takes the rest. */
static const char *get(const char *expectation, const char *key, char *buf)
{
    size_t klen = strlen(key);
    const char *p = expectation;
    while ((p = strstr(p, key)) != NULL) {
        if ((p == expectation || p[-1] == ' ') && p[klen] == '=') {
            const char *v = p + klen + 1;
            size_t len = strcmp(key, "text") == 0 ? strlen(v) : strcspn(v, " ");
            memcpy(buf, v, len);
            buf[len] = 0;
            return buf;
        }
        p += klen;
    }
    buf[0] = 0;
    return buf;
}

static long long num(const char *expectation, const char *key)
{
    char buf[64];
    return strtoll(get(expectation, key, buf), NULL, 10);
}

static uint8_t lookup(const char *word, const char *const *names, uint8_t n)
{
    uint8_t i;
    for (i = 0; i < n; i++)
        if (strcmp(word, names[i]) == 0)
            return i;
    return 255;
}

static uint8_t command_id(const char *name)
{
    uint8_t cmd;
    for (cmd = 0; cmd < PB_CMD_COUNT; cmd++)
        if (strcmp(pb_command_name_P(cmd), name) == 0)
            return cmd;
    return PB_CMD_NONE;
}

static int64_t parse_milli(const char *text)
{
    int negative = text[0] == '-';
    const char *p = text + negative, *dot = strchr(p, '.');
    int64_t whole = strtoll(p, NULL, 10);
    int64_t frac = dot ? strtoll(dot + 1, NULL, 10) : 0;
    int64_t v = whole * 1000 + frac;
    return negative ? -v : v;
}

static pb_factor factor_of(const char *text)
{
    pb_factor f = {0, 0};
    if (strcmp(text, "-") != 0 && pb_parse_factor(text, (uint8_t)strlen(text), &f) != PB_OK)
        f.mantissa = 0;
    return f;
}

/* Build the line an accepted dev vector describes, with the firmware's own functions. */
static void build_device_line(const char *exp, pb_line *line)
{
    static const char *const settings[] = {"ok", "blank", "bad"};
    static const char *const resets[] = {"power", "external", "brownout", "watchdog", "command", "unknown"};
    char a[64], b[64], c[64], kind[16], cmd_name[16];
    sscanf(exp, "%15s %15s", kind, cmd_name);

    if (strcmp(kind, "hello") == 0) {
        pb_format_hello(line, get(exp, "firmware", a), get(exp, "id", b), (uint8_t)num(exp, "channels"),
                        (uint8_t)num(exp, "rate"), lookup(get(exp, "settings", c), settings, 3),
                        lookup(get(exp, "reset", c), resets, 6));
    } else if (strcmp(kind, "data") == 0) {
        int has_raw = strcmp(get(exp, "raw", a), "-") != 0;
        int has_grams = strcmp(get(exp, "grams", b), "-") != 0;
        pb_format_data(line, (uint16_t)num(exp, "seq"), (uint32_t)num(exp, "ms"), (uint8_t)num(exp, "ch"),
                       (uint8_t)has_raw, has_raw ? (int32_t)atol(a) : 0, (uint8_t)has_grams,
                       has_grams ? parse_milli(b) : 0,
                       (uint16_t)strtol(get(exp, "flags", c), NULL, 16));
    } else if (strcmp(kind, "err") == 0) {
        const char *name = get(exp, "cmd", a);
        pb_format_error(line, (uint8_t)num(exp, "code"), strcmp(name, "?") == 0 ? PB_CMD_NONE : command_id(name));
        /* The vector pins the error text too: compare it separately below. */
        if (strcmp(pb_error_text_P((uint8_t)num(exp, "code")), get(exp, "text", b)) != 0)
            line->len = 0;
    } else {
        uint8_t cmd = command_id(cmd_name);
        switch (cmd) {
        case PB_CMD_INFO:
            pb_format_info(line, get(exp, "firmware", a), get(exp, "id", b), (uint8_t)num(exp, "channels"),
                           (uint8_t)num(exp, "rate"), lookup(get(exp, "settings", c), settings, 3),
                           (uint8_t)num(exp, "streaming"), (uint8_t)num(exp, "powered"));
            return;
        case PB_CMD_WIRING:
            get(exp, "rate", c);
            pb_format_wiring(line, (uint8_t)num(exp, "ch"), (uint8_t)num(exp, "dout"), (uint8_t)num(exp, "sck"),
                             strcmp(c, "-") == 0 ? -1 : (int8_t)atoi(c));
            return;
        case PB_CMD_CAL:
        case PB_CMD_TARE:
            get(exp, "calid", c);
            pb_format_calibration(line, cmd, (uint8_t)num(exp, "ch"), (int32_t)num(exp, "offset"),
                                  factor_of(get(exp, "factor", a)), strcmp(c, "-") == 0 ? "" : c);
            return;
        default:
            break;
        }
        pb_begin_ok(line, cmd);
        if (cmd == PB_CMD_PING && get(exp, "token", a)[0])
            pb_field_str(line, a);
        else if (cmd == PB_CMD_ID)
            pb_field_str(line, get(exp, "id", a));
        else if (cmd == PB_CMD_CHANNELS)
            pb_field_uint(line, (uint32_t)num(exp, "channels"));
        else if (cmd == PB_CMD_STREAM || cmd == PB_CMD_POWER)
            pb_field_uint(line, (uint32_t)num(exp, "on"));
        else if (cmd == PB_CMD_RATE)
            pb_field_uint(line, (uint32_t)num(exp, "rate"));
        else if (cmd == PB_CMD_GAIN) {
            pb_field_uint(line, (uint32_t)num(exp, "ch"));
            pb_field_uint(line, (uint32_t)num(exp, "gain"));
        }
        pb_line_end(line);
    }
}

/* The parser's result in the vectors' notation. */
static void describe(uint8_t err, const pb_command *c, char *out)
{
    char factor[32];
    pb_line tmp;
    if (err) {
        sprintf(out, "error %u cmd=%s", err, pb_command_name_P(c->cmd));
        return;
    }
    switch (c->cmd) {
    case PB_CMD_NONE: strcpy(out, "none"); return;
    case PB_CMD_PING:
        if (c->text[0])
            sprintf(out, "PING token=%s", c->text);
        else
            strcpy(out, "PING");
        return;
    case PB_CMD_ID:
        if (c->set)
            sprintf(out, "ID id=%s", c->text);
        else
            strcpy(out, "ID");
        return;
    case PB_CMD_CHANNELS:
    case PB_CMD_STREAM:
    case PB_CMD_POWER:
    case PB_CMD_RATE: {
        const char *key = c->cmd == PB_CMD_CHANNELS ? "channels" : c->cmd == PB_CMD_RATE ? "rate" : "on";
        if (c->set)
            sprintf(out, "%s %s=%ld", pb_command_name_P(c->cmd), key, (long)c->value);
        else
            strcpy(out, pb_command_name_P(c->cmd));
        return;
    }
    case PB_CMD_GAIN:
        if (c->set)
            sprintf(out, "GAIN ch=%u gain=%ld", c->channel, (long)c->value);
        else
            sprintf(out, "GAIN ch=%u", c->channel);
        return;
    case PB_CMD_TARE:
        sprintf(out, "TARE ch=%u samples=%ld", c->channel, (long)c->value);
        return;
    case PB_CMD_WIRING:
        sprintf(out, "WIRING ch=%u", c->channel);
        return;
    case PB_CMD_CAL:
        if (!c->set) {
            sprintf(out, "CAL ch=%u", c->channel);
            return;
        }
        pb_line_begin(&tmp, "");
        pb_field_factor(&tmp, c->factor);
        tmp.text[tmp.len] = 0;
        strcpy(factor, tmp.text + 2); /* skip "$," */
        sprintf(out, "CAL ch=%u offset=%ld factor=%s calid=%s", c->channel, (long)c->offset, factor,
                c->text[0] ? c->text : "-");
        return;
    default:
        strcpy(out, pb_command_name_P(c->cmd));
        return;
    }
}

int main(int argc, char **argv)
{
    char text[1024], input[1024], got[512];
    int lineno = 0;
    FILE *f;
    if (argc != 2) {
        fprintf(stderr, "usage: %s protocol-vectors.txt\n", argv[0]);
        return 2;
    }
    f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    while (fgets(text, sizeof text, f)) {
        char *kind, *in, *exp, *nl;
        size_t len;
        lineno++;
        if ((nl = strchr(text, '\n')) != NULL)
            *nl = 0;
        if (text[0] == '#' || text[0] == 0)
            continue;
        kind = text;
        in = strchr(kind, '\t');
        exp = in ? strchr(in + 1, '\t') : NULL;
        if (!in || !exp) {
            fail(lineno, "not three columns", text, "kind<TAB>input<TAB>expectation");
            continue;
        }
        *in++ = 0;
        *exp++ = 0;
        len = unescape(in, input);
        checked++;

        if (strcmp(kind, "crc") == 0) {
            sprintf(got, "%04X", pb_crc16(input, (uint8_t)len));
            if (strcmp(got, exp) != 0)
                fail(lineno, "crc", got, exp);
        } else if (strcmp(kind, "dev") == 0) {
            pb_line line;
            if (strncmp(exp, "reject", 6) == 0)
                continue; /* the host's business: the firmware never sends these */
            memset(&line, 0, sizeof line);
            build_device_line(exp, &line);
            if (line.len < 2 || line.text[line.len - 2] != '\r' || line.text[line.len - 1] != '\n') {
                fail(lineno, "line not built (overflow, or the error text differs)", line.text, input);
                continue;
            }
            line.text[line.len - 2] = 0;
            if (strcmp(line.text, input) != 0)
                fail(lineno, "device line", line.text, input);
        } else if (strcmp(kind, "cmd") == 0 || strcmp(kind, "enc") == 0) {
            pb_command c;
            uint8_t err;
            if (len > PB_COMMAND_MAX) {
                fail(lineno, "command vector longer than the firmware takes", input, exp);
                continue;
            }
            err = pb_parse_command(input, (uint8_t)len, 2, &c);
            describe(err, &c, got);
            if (strcmp(got, exp) != 0)
                fail(lineno, "command", got, exp);
        } else if (strcmp(kind, "grams") == 0) {
            long raw, offset;
            char factor_text[64];
            pb_line line;
            if (sscanf(input, "%ld %ld %63s", &raw, &offset, factor_text) != 3) {
                fail(lineno, "grams input", input, "raw offset factor");
                continue;
            }
            pb_line_begin(&line, "");
            pb_field_milli(&line, pb_milligrams((int32_t)raw, (int32_t)offset, factor_of(factor_text)));
            line.text[line.len] = 0;
            if (strcmp(line.text + 2, exp) != 0)
                fail(lineno, "grams", line.text + 2, exp);
        } else {
            fail(lineno, "unknown kind", kind, "crc, dev, cmd, enc or grams");
        }
    }
    fclose(f);
    printf("%d vectors checked, %d failed\n", checked, failures);
    return failures || checked == 0 ? 1 : 0;
}
