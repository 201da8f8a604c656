/* wire.c -- XMCAPI frame headers (encode, decode, rules) and the stream decoder. */
#include "wire.h"

#include <stdlib.h>
#include <string.h>

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static uint16_t get16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The rules after magic and version (wire.h), in their documented order. */
static enum xw_err check(const struct xw_header *h, uint32_t limit)
{
    if (h->type < XW_MSG || h->type > XW_TYPE_LAST) return XW_ETYPE;
    if ((h->flags & XW_F_RESERVED) || (h->priority && h->type != XW_MSG)) return XW_ERESERVED;
    unsigned f = h->flags;
    unsigned fc = f & (XW_F_STOP | XW_F_RESUME);
    switch (h->type) {
    case XW_MSG:
    case XW_PKT:
    case XW_SCALAR:
        if (f) return XW_EFLAGS;
        break;
    case XW_ACK:
        if (!(f & XW_F_ACK) || (f & XW_F_REFUSED) || (fc != XW_F_STOP && fc != XW_F_RESUME))
            return XW_EFLAGS;
        break;
    default: /* requests and their replies */
        if (fc || ((f & XW_F_REFUSED) && !(f & XW_F_ACK))) return XW_EFLAGS;
        break;
    }
    uint32_t n = h->size;
    if (h->type == XW_ACK && n != 0) return XW_ELENGTH;
    if (h->type == XW_SCALAR && n != 1 && n != 2 && n != 4 && n != 8) return XW_ELENGTH;
    if ((f & XW_F_REFUSED) && n != 4) return XW_ELENGTH;
    if (n > limit) return XW_ETOOBIG;
    return XW_OK;
}

enum xw_err xw_encode(const struct xw_header *h, uint8_t out[XW_HEADER_SIZE])
{
    enum xw_err e = check(h, UINT32_MAX);
    if (e != XW_OK) return e;
    out[0] = XW_MAGIC0;
    out[1] = XW_MAGIC1;
    out[2] = XW_VERSION;
    out[3] = h->type;
    out[4] = h->flags;
    out[5] = h->priority;
    put16(out + 6, h->port);
    put16(out + 8, h->src_domain);
    put16(out + 10, h->src_node);
    put16(out + 12, h->dst_domain);
    put16(out + 14, h->dst_node);
    put32(out + 16, h->qp);
    put32(out + 20, h->size);
    return XW_OK;
}

enum xw_err xw_decode(const uint8_t in[XW_HEADER_SIZE], uint32_t limit, struct xw_header *h)
{
    h->type = in[3];
    h->flags = in[4];
    h->priority = in[5];
    h->port = get16(in + 6);
    h->src_domain = get16(in + 8);
    h->src_node = get16(in + 10);
    h->dst_domain = get16(in + 12);
    h->dst_node = get16(in + 14);
    h->qp = get32(in + 16);
    h->size = get32(in + 20);
    if (in[0] != XW_MAGIC0 || in[1] != XW_MAGIC1) return XW_EMAGIC;
    if (in[2] != XW_VERSION) return XW_EVERSION;
    return check(h, limit);
}

const char *xw_strerror(int err)
{
    switch (err) {
    case XW_OK:
        return "ok";
    case XW_EMAGIC:
        return "bad magic";
    case XW_EVERSION:
        return "unsupported version";
    case XW_ETYPE:
        return "unknown message type";
    case XW_ERESERVED:
        return "reserved bits set";
    case XW_EFLAGS:
        return "flags do not fit the type";
    case XW_ELENGTH:
        return "payload size does not fit the type";
    case XW_ETOOBIG:
        return "payload larger than the limit";
    default:
        return "unknown";
    }
}

int xw_decoder_init(struct xw_decoder *d, uint32_t limit)
{
    memset(d, 0, sizeof *d);
    /* One byte at least, so a payload pointer is never NULL. */
    d->buf = malloc(limit ? limit : 1);
    if (!d->buf) return -1;
    d->limit = limit;
    return 0;
}

void xw_decoder_fini(struct xw_decoder *d)
{
    free(d->buf);
    memset(d, 0, sizeof *d);
}

/* Take up to want - have bytes of the chunk into dst + have. True once the
 * part is complete. */
static int gather(struct xw_decoder *d, uint8_t *dst, uint32_t want, const uint8_t **data,
                  size_t *len)
{
    size_t n = want - d->have;
    if (n > *len) n = *len;
    if (n) { /* n == 0 may come with a NULL chunk */
        memcpy(dst + d->have, *data, n);
        d->have += (uint32_t)n;
        *data += n;
        *len -= n;
    }
    return d->have == want;
}

int xw_next(struct xw_decoder *d, const uint8_t **data, size_t *len, struct xw_frame *f)
{
    if (d->err) return d->err;
    if (!d->in_payload) {
        const uint8_t *h = d->hdr;
        if (d->have == 0 && *len >= XW_HEADER_SIZE) {
            h = *data; /* whole in the chunk: judge it in place */
            *data += XW_HEADER_SIZE;
            *len -= XW_HEADER_SIZE;
        } else if (!gather(d, d->hdr, XW_HEADER_SIZE, data, len)) {
            return 0;
        }
        int e = xw_decode(h, d->limit, &d->cur);
        d->have = 0;
        if (e != XW_OK) return d->err = e;
        d->in_payload = 1;
    }
    uint32_t n = d->cur.size;
    if (d->have == 0 && *len >= n) {
        f->payload = d->buf;
        if (n) { /* whole in the chunk: hand it out in place */
            f->payload = *data;
            *data += n;
            *len -= n;
        }
    } else if (gather(d, d->buf, n, data, len)) {
        f->payload = d->buf;
    } else {
        return 0;
    }
    f->h = d->cur;
    d->have = 0;
    d->in_payload = 0;
    return 1;
}

size_t xw_pending(const struct xw_decoder *d)
{
    return d->in_payload ? XW_HEADER_SIZE + (size_t)d->have : d->have;
}

int xw_failed(const struct xw_decoder *d)
{
    return d->err;
}
