/* SPDX-License-Identifier: Zlib */
/* text.c - input text made safe to echo (src/base/text.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"

int vs_text_utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	int len, k;

	if (n == 0)
		return 0;
	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		len = 2;
	else if (c >= 0xE0 && c <= 0xEF)
		len = 3;
	else if (c >= 0xF0 && c <= 0xF4)
		len = 4;
	else
		return 0;
	if (n < (size_t)len)
		return 0;
	for (k = 1; k < len; k++)
		if ((s[k] & 0xC0) != 0x80)
			return 0;
	/* overlong forms, surrogates, past U+10FFFF */
	if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] > 0x9F) || (c == 0xF0 && s[1] < 0x90) ||
		(c == 0xF4 && s[1] > 0x8F))
		return 0;
	return len;
}

/* Whether c is a control character: below 0x20, 0x7F, or U+0080-U+009F. */
static int is_control(unsigned long c)
{
	return c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F);
}

/* The code point of the valid character s of len bytes. */
static unsigned long code_point(const unsigned char *s, int len)
{
	static const unsigned char lead_mask[5] = { 0, 0x7F, 0x1F, 0x0F, 0x07 };
	unsigned long c = s[0] & lead_mask[len];
	int k;

	for (k = 1; k < len; k++)
		c = c << 6 | (s[k] & 0x3Fu);
	return c;
}

/* The character at s (left bytes): its bytes in *step, and whether it is
 * written as it is (1) or as \xNN for each byte (0). */
static int plain_char(const unsigned char *s, size_t left, int keep_newline, int *step)
{
	int n = vs_text_utf8_len(s, left);
	unsigned long c = n ? code_point(s, n) : 0;

	*step = n ? n : 1;
	return n && (!is_control(c) || c == '\t' || (c == '\n' && keep_newline));
}

size_t vs_text_escape(char *dst, size_t cap, const char *src, size_t len, int keep_newline)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t i = 0, o = 0;

	if (cap == 0)
		return 0;
	while (i < len) {
		int n, k;
		int plain = plain_char(s + i, len - i, keep_newline, &n);
		int need = plain ? n : 4 * n;
		if (o + (size_t)need >= cap)
			break;
		if (plain) {
			memcpy(dst + o, s + i, (size_t)n);
		} else {
			for (k = 0; k < n; k++)
				snprintf(dst + o + 4 * (size_t)k, 5, "\\x%02x", s[i + (size_t)k]);
		}
		o += (size_t)need;
		i += (size_t)n;
	}
	dst[o] = '\0';
	return o;
}

size_t vs_text_path(char *dst, size_t cap, const char *path)
{
	const unsigned char *s = (const unsigned char *)path;
	size_t len = strlen(path), total = 0, i = 0;
	int n;

	for (i = 0; i < len; i += (size_t)n)
		total += plain_char(s + i, len - i, 0, &n) ? (size_t)n : 4 * (size_t)n;
	if (total < cap || cap <= sizeof VS_TEXT_CUT)
		return vs_text_escape(dst, cap, path, len, 0);
	/* drop whole characters from the front until the rest and the marker fit */
	for (i = 0; total > cap - sizeof VS_TEXT_CUT; i += (size_t)n)
		total -= plain_char(s + i, len - i, 0, &n) ? (size_t)n : 4 * (size_t)n;
	memcpy(dst, VS_TEXT_CUT, sizeof VS_TEXT_CUT - 1);
	return sizeof VS_TEXT_CUT - 1 + vs_text_escape(dst + sizeof VS_TEXT_CUT - 1, cap - (sizeof VS_TEXT_CUT - 1),
		path + i, len - i, 0);
}

void vs_text_path_msg(char *dst, size_t cap, const char *path, const char *fmt, ...)
{
	char why[1024], shown[1024];
	size_t n, room;
	va_list ap;

	if (cap == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	vs_text_escape(shown, sizeof shown, why, strlen(why), 0);
	/* the reason whole, the path in what is left */
	n = strlen(shown) + 2;
	room = cap > n ? cap - n : 1;
	if (room > VS_TEXT_PATH_SHOWN)
		room = VS_TEXT_PATH_SHOWN;
	n = vs_text_path(dst, room, path);
	snprintf(dst + n, cap - n, ": %s", shown);
}

void vs_text_escape_in_place(char *buf, size_t cap)
{
	size_t len = strnlen(buf, cap);
	char small[1024], *copy = len < sizeof small ? small : malloc(len + 1);

	if (!copy) {
		/* no memory for a copy: drop what would need escaping */
		size_t i;
		for (i = 0; i < len; i++)
			if ((unsigned char)buf[i] < 0x20 || (unsigned char)buf[i] >= 0x7F)
				buf[i] = '?';
		return;
	}
	memcpy(copy, buf, len);
	copy[len] = '\0';
	vs_text_escape(buf, cap, copy, len, 0);
	if (copy != small)
		free(copy);
}

int vs_text_clean(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		int n = vs_text_utf8_len(u + i, len - i);
		if (!n)
			return 0;
		if (is_control(code_point(u + i, n)) && u[i] != '\t')
			return 0;
		i += (size_t)n;
	}
	return 1;
}

void vs_text_json(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);

	fputc('"', fp);
	while (n) {
		int len = vs_text_utf8_len(p, n);
		if (len == 0) {
			fputs("\\ufffd", fp);
			len = 1;
		} else if (*p == '"' || *p == '\\') {
			fputc('\\', fp);
			fputc(*p, fp);
		} else if (*p < 0x20 || *p == 0x7F) {
			fprintf(fp, "\\u%04x", *p);
		} else {
			fwrite(p, 1, (size_t)len, fp);
		}
		p += len;
		n -= (size_t)len;
	}
	fputc('"', fp);
}

size_t vs_text_utf8(char *dst, size_t cap, const char *src)
{
	static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */
	const unsigned char *p = (const unsigned char *)src;
	size_t n = strlen(src), o = 0;

	if (cap == 0)
		return 0;
	while (n) {
		int len = vs_text_utf8_len(p, n);
		const char *from = len ? (const char *)p : replacement;
		size_t put = len ? (size_t)len : sizeof replacement - 1;
		if (o + put >= cap)
			break;
		memcpy(dst + o, from, put);
		o += put;
		len = len ? len : 1;
		p += len;
		n -= (size_t)len;
	}
	dst[o] = '\0';
	return o;
}

void vs_text_csv(FILE *fp, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}
