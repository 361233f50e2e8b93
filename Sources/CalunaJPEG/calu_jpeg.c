#include "calu_jpeg.h"

#include <limits.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

/* cairo's ARGB32 word, as bytes in memory. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define CALU_ARGB_SPACE JCS_EXT_ARGB
#define CALU_ARGB_IN JCS_EXT_XRGB
#define CALU_R 1
#define CALU_G 2
#define CALU_B 3
#define CALU_A 0
#else
#define CALU_ARGB_SPACE JCS_EXT_BGRA
#define CALU_ARGB_IN JCS_EXT_BGRX
#define CALU_R 2
#define CALU_G 1
#define CALU_B 0
#define CALU_A 3
#endif

/* A progressive file can ask for any number of scans, each a pass over the
 * whole image: a tiny file could keep the decoder busy for minutes. */
#define CALU_MAX_SCANS 1000

/* Everything that must survive a longjmp lives here, in the caller's frame,
 * not in the frame that called setjmp (C11 7.13.2.1). */
typedef struct {
    struct jpeg_error_mgr pub;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    char *msg;
    size_t msglen;
} calu_error;

static void set_message(char *msg, size_t msglen, const char *text) {
    if (msg == NULL || msglen == 0) return;
    snprintf(msg, msglen, "%s", text);
}

static void fail_with_libjpeg_message(j_common_ptr c) {
    calu_error *e = (calu_error *)c->err;
    char text[JMSG_LENGTH_MAX];
    e->pub.format_message(c, text);
    set_message(e->msg, e->msglen, text);
    longjmp(e->jump, 1);
}

/* A truncated or damaged file is only a warning to libjpeg (it pads with
 * grey and goes on): for us it is an error, never silent garbage. The one
 * warning let through is extra bytes between segments, which many cameras
 * write and which loses no image data. */
static void on_message(j_common_ptr c, int level) {
    if (level < 0 && c->err->msg_code != JWRN_EXTRANEOUS_DATA) fail_with_libjpeg_message(c);
}

static void on_output(j_common_ptr c) { (void)c; /* libjpeg would print to stderr */ }

static void on_progress(j_common_ptr c) {
    if (!c->is_decompressor) return;
    if (((j_decompress_ptr)c)->input_scan_number > CALU_MAX_SCANS) {
        calu_error *e = (calu_error *)c->err;
        set_message(e->msg, e->msglen, "too many progressive scans");
        longjmp(e->jump, 1);
    }
}

static struct jpeg_error_mgr *setup_error(calu_error *e, char *err, size_t errlen) {
    jpeg_std_error(&e->pub);
    e->pub.error_exit = fail_with_libjpeg_message;
    e->pub.emit_message = on_message;
    e->pub.output_message = on_output;
    e->progress.progress_monitor = on_progress;
    e->msg = err;
    e->msglen = errlen;
    set_message(err, errlen, "");
    return &e->pub;
}

/* ---- decoding ---- */

typedef struct {
    struct jpeg_decompress_struct cinfo;
    calu_error err;
} calu_decoder;

static int open_decoder(calu_decoder *d, const unsigned char *data, size_t len) {
    if (len > ULONG_MAX) {
        set_message(d->err.msg, d->err.msglen, "the data is too large");
        return -1;
    }
    jpeg_create_decompress(&d->cinfo);
    d->cinfo.progress = &d->err.progress;
    jpeg_mem_src(&d->cinfo, data, (unsigned long)len);
    jpeg_read_header(&d->cinfo, TRUE);
    return 0;
}

static int read_header(calu_decoder *d, const unsigned char *data, size_t len, int *w, int *h) {
    if (setjmp(d->err.jump)) return -1;
    if (open_decoder(d, data, len) != 0) return -1;
    if (d->cinfo.image_width > INT_MAX || d->cinfo.image_height > INT_MAX) {
        set_message(d->err.msg, d->err.msglen, "the image is too large");
        return -1;
    }
    *w = (int)d->cinfo.image_width;
    *h = (int)d->cinfo.image_height;
    return 0;
}

int calu_jpeg_header(const unsigned char *data, size_t len, int *w, int *h,
                     char *err, size_t errlen) {
    if (data == NULL || w == NULL || h == NULL) {
        set_message(err, errlen, "no data");
        return -1;
    }
    calu_decoder d;
    memset(&d, 0, sizeof d);
    d.cinfo.err = setup_error(&d.err, err, errlen);
    int r = read_header(&d, data, len, w, h);
    jpeg_destroy_decompress(&d.cinfo);
    return r;
}

/* CMYK as JPEGs store it; Adobe's files (nearly all of them) invert it. */
static void cmyk_row(const JSAMPLE *in, unsigned char *out, JDIMENSION w, int inverted) {
    for (JDIMENSION x = 0; x < w; x++, in += 4, out += 4) {
        unsigned c = in[0], m = in[1], y = in[2], k = in[3];
        if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        out[CALU_R] = (unsigned char)((c * k + 127) / 255);
        out[CALU_G] = (unsigned char)((m * k + 127) / 255);
        out[CALU_B] = (unsigned char)((y * k + 127) / 255);
        out[CALU_A] = 255;
    }
}

static int decode(calu_decoder *d, const unsigned char *data, size_t len, unsigned char *argb,
                  int stride, int maxw, int maxh) {
    if (setjmp(d->err.jump)) return -1;
    if (open_decoder(d, data, len) != 0) return -1;
    j_decompress_ptr c = &d->cinfo;
    int cmyk = 0;
    switch (c->jpeg_color_space) {
    case JCS_GRAYSCALE: case JCS_RGB: case JCS_YCbCr:
        c->out_color_space = CALU_ARGB_SPACE;
        break;
    case JCS_CMYK: case JCS_YCCK:
        c->out_color_space = JCS_CMYK;  /* libjpeg turns YCCK into CMYK; we do the rest */
        cmyk = 1;
        break;
    default:
        set_message(d->err.msg, d->err.msglen, "unsupported colour space");
        return -1;
    }
    jpeg_start_decompress(c);
    if (c->output_width > (JDIMENSION)maxw || c->output_height > (JDIMENSION)maxh
        || (size_t)c->output_width * 4 > (size_t)stride) {
        set_message(d->err.msg, d->err.msglen, "the image is larger than the buffer");
        return -1;
    }
    /* From libjpeg's pool, so jpeg_destroy frees it even after a longjmp. */
    JSAMPARRAY tmp = cmyk ? c->mem->alloc_sarray((j_common_ptr)c, JPOOL_IMAGE, c->output_width * 4, 1) : NULL;
    while (c->output_scanline < c->output_height) {
        unsigned char *row = argb + (size_t)c->output_scanline * (size_t)stride;
        JSAMPROW dest = cmyk ? tmp[0] : row;
        if (jpeg_read_scanlines(c, &dest, 1) != 1) {
            set_message(d->err.msg, d->err.msglen, "the decoder stopped early");
            return -1;
        }
        if (cmyk) cmyk_row(tmp[0], row, c->output_width, c->saw_Adobe_marker);
    }
    jpeg_finish_decompress(c);
    return 0;
}

int calu_jpeg_decode(const unsigned char *data, size_t len, unsigned char *argb,
                     int stride, int maxw, int maxh, char *err, size_t errlen) {
    if (data == NULL || argb == NULL || stride <= 0 || maxw <= 0 || maxh <= 0) {
        set_message(err, errlen, "bad arguments");
        return -1;
    }
    calu_decoder d;
    memset(&d, 0, sizeof d);
    d.cinfo.err = setup_error(&d.err, err, errlen);
    int r = decode(&d, data, len, argb, stride, maxw, maxh);
    jpeg_destroy_decompress(&d.cinfo);
    return r;
}

/* ---- encoding ---- */

/* A growing malloc'd buffer we own (jpeg_mem_dest's would leak on error). */
typedef struct {
    struct jpeg_destination_mgr pub;
    unsigned char *buf;
    size_t cap;
} calu_dest;

static void dest_init(j_compress_ptr c) {
    calu_dest *d = (calu_dest *)c->dest;
    d->cap = 65536;
    d->buf = malloc(d->cap);
    if (d->buf == NULL) ERREXIT1(c, JERR_OUT_OF_MEMORY, 1);
    d->pub.next_output_byte = d->buf;
    d->pub.free_in_buffer = d->cap;
}

static boolean dest_grow(j_compress_ptr c) {
    calu_dest *d = (calu_dest *)c->dest;
    size_t used = d->cap;  /* libjpeg calls this when the buffer is full */
    if (d->cap > SIZE_MAX / 2) ERREXIT1(c, JERR_OUT_OF_MEMORY, 2);
    unsigned char *n = realloc(d->buf, d->cap * 2);
    if (n == NULL) ERREXIT1(c, JERR_OUT_OF_MEMORY, 3);
    d->buf = n;
    d->cap *= 2;
    d->pub.next_output_byte = n + used;
    d->pub.free_in_buffer = d->cap - used;
    return TRUE;
}

static void dest_term(j_compress_ptr c) { (void)c; }

typedef struct {
    struct jpeg_compress_struct cinfo;
    calu_error err;
    calu_dest dest;
} calu_encoder;

static int encode(calu_encoder *e, const unsigned char *argb, int w, int h, int stride, int quality, int gray) {
    if (setjmp(e->err.jump)) return -1;
    j_compress_ptr c = &e->cinfo;
    jpeg_create_compress(c);
    e->dest.pub.init_destination = dest_init;
    e->dest.pub.empty_output_buffer = dest_grow;
    e->dest.pub.term_destination = dest_term;
    c->dest = &e->dest.pub;
    c->image_width = (JDIMENSION)w;
    c->image_height = (JDIMENSION)h;
    c->input_components = 4;
    c->in_color_space = CALU_ARGB_IN;
    jpeg_set_defaults(c);
    if (gray) jpeg_set_colorspace(c, JCS_GRAYSCALE);
    jpeg_set_quality(c, quality, TRUE);
    if (quality >= 90) {
        for (int i = 0; i < c->num_components; i++) {
            c->comp_info[i].h_samp_factor = 1;
            c->comp_info[i].v_samp_factor = 1;
        }
    }
    jpeg_start_compress(c, TRUE);
    while (c->next_scanline < c->image_height) {
        JSAMPROW row = (JSAMPROW)(argb + (size_t)c->next_scanline * (size_t)stride);
        jpeg_write_scanlines(c, &row, 1);
    }
    jpeg_finish_compress(c);
    return 0;
}

int calu_jpeg_encode(const unsigned char *argb, int w, int h, int stride, int quality, int gray,
                     unsigned char **out, unsigned long *outlen, char *err, size_t errlen) {
    if (out != NULL) *out = NULL;
    if (outlen != NULL) *outlen = 0;
    if (argb == NULL || out == NULL || outlen == NULL || w <= 0 || h <= 0 || w > JPEG_MAX_DIMENSION
        || h > JPEG_MAX_DIMENSION || stride < 0 || (size_t)stride < (size_t)w * 4
        || quality < 1 || quality > 100) {
        set_message(err, errlen, "bad arguments");
        return -1;
    }
    calu_encoder e;
    memset(&e, 0, sizeof e);
    e.cinfo.err = setup_error(&e.err, err, errlen);
    int r = encode(&e, argb, w, h, stride, quality, gray);
    jpeg_destroy_compress(&e.cinfo);
    if (r != 0) {
        free(e.dest.buf);
        return -1;
    }
    size_t size = e.dest.cap - e.dest.pub.free_in_buffer;
    if (size > ULONG_MAX) { free(e.dest.buf); set_message(err, errlen, "output too large"); return -1; }
    *out = e.dest.buf;
    *outlen = (unsigned long)size;
    return 0;
}

void calu_jpeg_free(unsigned char *buffer) { free(buffer); }
