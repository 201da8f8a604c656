/*
 * xmcapi/wire.h -- the XMCAPI wire format: frame headers and the stream decoder.
 *
 * FRAMES
 *   Nodes talk over byte streams (TCP) in frames: a 24-byte header, then
 *   `size` payload bytes. Every multi-byte field is big-endian (network
 *   order). The header carries what the XMCAPI paper's does (sender id,
 *   receiver id, port id, message type, ACK flag, queue-pair id, payload
 *   size) plus a magic, a version and a priority:
 *
 *     offset size field
 *       0     2   magic     "XM" (0x58 0x4D)
 *       2     1   version   XW_VERSION
 *       3     1   type      enum xw_type
 *       4     1   flags     XW_F_* (bits 4..7 reserved, zero)
 *       5     1   priority  MCAPI priority of an XW_MSG; zero otherwise
 *       6     2   port      port id (of the receiving endpoint for data)
 *       8     2   sender domain
 *      10     2   sender node
 *      12     2   receiver domain
 *      14     2   receiver node
 *      16     4   qp        queue-pair id (opaque here, see docs/xmcapi.md)
 *      20     4   size      payload bytes that follow the header
 *
 *   docs/xmcapi.md documents every field and what each type means.
 *
 * RULES (checked by xw_encode and xw_decode alike, in this order)
 *   magic "XM"                                        else XW_EMAGIC
 *   version == XW_VERSION                             else XW_EVERSION
 *   XW_MSG <= type <= XW_TYPE_LAST                    else XW_ETYPE
 *   flag bits 4..7 clear; priority 0 unless XW_MSG    else XW_ERESERVED
 *   flags fit the type:                               else XW_EFLAGS
 *     XW_MSG, XW_PKT, XW_SCALAR: no flag;
 *     XW_ACK: XW_F_ACK and exactly one of XW_F_STOP, XW_F_RESUME;
 *     XW_CONNECT, XW_OPEN, XW_CLOSE, XW_HELLO, XW_GET, XW_CREDIT, XW_RELEASE,
 *     XW_DELETED: no XW_F_STOP/XW_F_RESUME,
 *       and XW_F_REFUSED only with XW_F_ACK.
 *   size fits the type:                               else XW_ELENGTH
 *     XW_ACK: 0; XW_SCALAR: 1, 2, 4 or 8; a refusal (XW_F_REFUSED): 4.
 *   size <= the receiver's payload limit              else XW_ETOOBIG
 *
 * STREAM DECODER
 *   struct xw_decoder turns a byte stream, fed in chunks of any size (one
 *   byte, a frame split anywhere, many frames at once), into frames, one per
 *   xw_next call. A frame that lies whole in the caller's chunk is handed out
 *   in place (no copy); only the bytes of a frame split across chunks are
 *   copied, into a buffer of `limit` payload bytes taken once at init. A
 *   header is judged as soon as its 24 bytes are in: a bad one is refused
 *   before any of its payload is read or buffered. The first error is sticky:
 *   the decoder returns it from then on and consumes nothing (the stream is
 *   out of step; its user closes the connection). No global state; one
 *   decoder per connection, used by one thread at a time.
 *
 *   A reader that wants a payload in a buffer of its own (packet channels
 *   receive straight into the application's buffer) reads XW_HEADER_SIZE
 *   bytes, judges them with xw_decode, then reads the payload itself.
 */
#ifndef XMCAPI_WIRE_H
#define XMCAPI_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define XW_HEADER_SIZE 24
#define XW_MAGIC0 0x58 /* 'X' */
#define XW_MAGIC1 0x4D /* 'M' */
#define XW_VERSION 2   /* 2: XW_CREDIT, XW_RELEASE, XW_DELETED; a MSG's qp */
/* MCAPI_MAX_PKT_SIZE of the reference configuration: a sensible limit for a
 * node that does not choose its own. */
#define XW_DEFAULT_LIMIT 65536u

enum xw_type {
    XW_MSG = 1,     /* a message to endpoint (receiver, port), with priority */
    XW_PKT = 2,     /* a packet on channel qp */
    XW_SCALAR = 3,  /* a scalar of size 1, 2, 4 or 8 bytes on channel qp */
    XW_CONNECT = 4, /* connect a channel (qp); the endpoints are in the payload */
    XW_OPEN = 5,    /* open one side of channel qp */
    XW_CLOSE = 6,   /* close one side of channel qp */
    XW_ACK = 7,     /* flow control: stop or resume sending to (receiver, port, qp) */
    XW_HELLO = 8,   /* first frame of a connection: who the sender is */
    XW_GET = 9,     /* does endpoint (receiver, port) exist? (mcapi_endpoint_get) */
    XW_CREDIT = 10, /* messages to endpoint (sender, port) taken: qp more may be sent */
    /* give back a get of endpoint (receiver, port) (mcapi_endpoint_release) */
    XW_RELEASE = 11,
    /* endpoint (sender, port) was deleted: to the nodes that got it */
    XW_DELETED = 12,
};

#define XW_TYPE_LAST XW_DELETED

enum xw_flag {
    XW_F_ACK = 1u << 0,     /* an answer: on every XW_ACK and on replies to requests */
    XW_F_STOP = 1u << 1,    /* XW_ACK only: the receiver's buffer is full, stop */
    XW_F_RESUME = 1u << 2,  /* XW_ACK only: there is room again, resume */
    XW_F_REFUSED = 1u << 3, /* a reply that refuses; payload: a 4-byte status */
};
#define XW_F_RESERVED 0xF0u

enum xw_err {
    XW_OK = 0,
    XW_EMAGIC = -1,    /* not "XM": not an XMCAPI stream, or out of step */
    XW_EVERSION = -2,  /* a version this node does not speak */
    XW_ETYPE = -3,     /* unknown message type */
    XW_ERESERVED = -4, /* a reserved flag bit, or a priority on a non-message */
    XW_EFLAGS = -5,    /* flags that do not fit the type */
    XW_ELENGTH = -6,   /* payload size impossible for the type */
    XW_ETOOBIG = -7,   /* payload larger than the receiver's limit */
};

/* A decoded header. Sender and receiver are (domain, node) pairs. */
struct xw_header {
    uint8_t type;     /* enum xw_type */
    uint8_t flags;    /* enum xw_flag bits */
    uint8_t priority; /* XW_MSG: the MCAPI priority; 0 otherwise */
    uint16_t port;
    uint16_t src_domain, src_node;
    uint16_t dst_domain, dst_node;
    uint32_t qp;
    uint32_t size; /* payload bytes after the header */
};

/* A frame from the decoder: its header and h.size payload bytes (payload is
 * never NULL). The payload points either into the chunk given to xw_next or
 * into the decoder's buffer: it is valid until the next xw_next call on the
 * decoder or until the chunk's memory is reused, whichever comes first. */
struct xw_frame {
    struct xw_header h;
    const uint8_t *payload;
};

/* Check *h against the rules (no payload limit) and write it to out.
 * Returns XW_OK, or the rule it breaks with out untouched. */
enum xw_err xw_encode(const struct xw_header *h, uint8_t out[XW_HEADER_SIZE]);

/* Read the 24 bytes of in into *h and check them against the rules with
 * payload limit `limit`. *h holds the fields as read even on error (for a
 * log line), but only XW_OK makes them meaningful. */
enum xw_err xw_decode(const uint8_t in[XW_HEADER_SIZE], uint32_t limit, struct xw_header *h);

/* "bad magic", ...: a constant string for an enum xw_err (or "unknown"). */
const char *xw_strerror(int err);

/* The stream decoder. Fields are private: use the functions below. */
struct xw_decoder {
    uint8_t hdr[XW_HEADER_SIZE]; /* a header split across chunks */
    uint8_t *buf;                /* a payload split across chunks: `limit` bytes */
    uint32_t limit;
    uint32_t have;  /* bytes of the current part (header or payload) held */
    int err;        /* sticky enum xw_err */
    int in_payload; /* the header is judged; collecting the payload */
    struct xw_header cur;
};

/* A decoder refusing payloads larger than limit bytes. Takes its buffer
 * (limit bytes) now, and never again. Returns 0, or -1 if out of memory. */
int xw_decoder_init(struct xw_decoder *d, uint32_t limit);
/* Free the buffer. The decoder may be initialised again. */
void xw_decoder_fini(struct xw_decoder *d);

/* Decode from the chunk *data of *len bytes, advancing both past what it
 * consumed:
 *   1          a frame is in *f; more may follow in what is left of the chunk
 *   0          the chunk is used up (its tail is held); feed the next one
 *   < 0        an enum xw_err: the stream is broken, now and forever
 * Call it again until it returns 0 before reading more from the stream:
 *
 *     const uint8_t *p = chunk; size_t n = got;
 *     int r;
 *     while ((r = xw_next(&d, &p, &n, &f)) == 1) deliver(&f);
 *     if (r < 0) close_connection(xw_strerror(r));
 *
 * A chunk of length 0 is fine (returns 0, or the sticky error). */
int xw_next(struct xw_decoder *d, const uint8_t **data, size_t *len, struct xw_frame *f);

/* Bytes of an unfinished frame the decoder holds (header and payload so
 * far): 0 exactly when the stream stopped between two frames. At the end of
 * the stream, non-zero means the last frame was truncated. */
size_t xw_pending(const struct xw_decoder *d);

/* The sticky error (an enum xw_err < 0), or 0 while the stream is fine. */
int xw_failed(const struct xw_decoder *d);

#endif
