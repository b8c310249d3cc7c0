/* SPDX-License-Identifier: Zlib */
/* options.c - "key=value,key=value" strategy options. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/options.h"

/* Next "key=value" item: sets key/klen and val/vlen, returns the rest. */
static const char *next_item(const char *p, const char **key, size_t *klen, const char **val, size_t *vlen)
{
	const char *end = strchr(p, ','), *eq;

	if (!end)
		end = p + strlen(p);
	eq = memchr(p, '=', (size_t)(end - p));
	*key = p;
	*klen = (size_t)((eq ? eq : end) - p);
	*val = eq ? eq + 1 : end;
	*vlen = (size_t)(end - *val);
	return *end ? end + 1 : end;
}

int vs_option_get(const char *options, const char *key, char *val, size_t vallen)
{
	const char *p = options ? options : "", *k, *v;
	size_t kl, vl, want = strlen(key);

	while (*p) {
		p = next_item(p, &k, &kl, &v, &vl);
		if (kl == want && memcmp(k, key, kl) == 0) {
			if (vallen && vl >= vallen) {
				/* never a value cut short, which might parse: one
				 * that fails to, and says why */
				snprintf(val, vallen, "%s", "(too long)");
			} else if (vallen) {
				memcpy(val, v, vl);
				val[vl] = '\0';
			}
			return 1;
		}
	}
	return 0;
}

int vs_option_check(const char *options, const char *const *known, char *err, size_t errlen)
{
	const char *p = options ? options : "", *k, *v;
	size_t kl, vl, i;

	while (*p) {
		p = next_item(p, &k, &kl, &v, &vl);
		if (kl == 0)
			continue;
		for (i = 0; known[i]; i++)
			if (strlen(known[i]) == kl && memcmp(known[i], k, kl) == 0)
				break;
		if (!known[i]) {
			int n = snprintf(err, errlen, "unknown option '%.*s'", (int)kl, k);
			if (known[0] && n > 0 && (size_t)n < errlen) {
				n += snprintf(err + n, errlen - (size_t)n, " (known:");
				for (i = 0; known[i] && (size_t)n < errlen; i++)
					n += snprintf(err + n, errlen - (size_t)n, " %s", known[i]);
				if ((size_t)n < errlen)
					snprintf(err + n, errlen - (size_t)n, ")");
			} else if (!known[0] && n > 0 && (size_t)n < errlen) {
				snprintf(err + n, errlen - (size_t)n, " (this strategy takes none)");
			}
			return -1;
		}
	}
	return 0;
}

int vs_option_check_repeats(const char *options, char *err, size_t errlen)
{
	const char *p = options ? options : "", *k, *v, *q, *k2, *v2;
	size_t kl, vl, kl2, vl2;

	while (*p) {
		p = next_item(p, &k, &kl, &v, &vl);
		for (q = p; *q;) {
			q = next_item(q, &k2, &kl2, &v2, &vl2);
			if (kl && kl2 == kl && memcmp(k, k2, kl) == 0) {
				snprintf(err, errlen, "option '%.*s' given twice", (int)kl, k);
				return -1;
			}
		}
	}
	return 0;
}

int vs_option_number(const char *text, uint32_t lo, uint32_t hi, uint32_t *val)
{
	const char *digits;
	char *end;
	unsigned long long v;
	uint32_t scale = 1;
	int hex;

	/* decimal, or hexadecimal after 0x: a leading 0 is not octal, and no
	 * sign or space gets through to strtoull */
	hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
	digits = hex ? text + 2 : text;
	if (!(hex ? isxdigit((unsigned char)*digits) : isdigit((unsigned char)*digits)))
		return -1;
	errno = 0;
	v = strtoull(digits, &end, hex ? 16 : 10);
	if (errno)
		return -1; /* past 64 bits: strtoull's clamp must not pass for a number */
	if (*end == 'K' || *end == 'k')
		scale = 1024u, end++;
	else if (*end == 'M' || *end == 'm')
		scale = 1024u * 1024u, end++;
	/* the range before the multiplication, so no product wraps into it */
	if (*end || v > hi / scale || v * scale < lo)
		return -1;
	*val = (uint32_t)(v * scale);
	return 0;
}

int vs_option_u32(const char *options, const char *key, uint32_t lo, uint32_t hi, uint32_t *val,
	char *err, size_t errlen)
{
	char buf[32];

	if (!vs_option_get(options, key, buf, sizeof buf))
		return 0;
	if (vs_option_number(buf, lo, hi, val) < 0) {
		snprintf(err, errlen, "option %s=%s: want a number from %u to %u (decimal, or hexadecimal after 0x; "
			"K and M multiply by 1024)", key, buf, (unsigned)lo, (unsigned)hi);
		return -1;
	}
	return 1;
}
