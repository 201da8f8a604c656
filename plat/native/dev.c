/*
 * dev.c -- the registry of named devices (native).
 *
 * Natively every device is software, created on first open and shared by
 * every opener in the process. Its parameters come from the `devices`
 * section of the running platform file when that declares the name, else
 * from defaults. Each run starts with an empty registry (a run's platform may
 * differ from the last one's); devices of earlier runs are kept, not freed,
 * so a handle that outlives its run stays safe to touch.
 */
#define _POSIX_C_SOURCE 200809L
#include "native.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct dev {
    char *name;
    enum nat_dev_type type;
    void *obj;
    struct dev *next;
};

static const char *const type_names[NAT_DEV_TYPES] = {"hwq", "mesh", "accel"};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct dev *devs;                          /* this run's */
static struct dev *retired;                       /* earlier runs' (kept alive) */
static const struct plat_dev_desc *declared_devs; /* the running platform's */
static int ndeclared;

void nat_devices_reset(const struct plat_dev_desc *decl, int n)
{
    pthread_mutex_lock(&lock);
    while (devs) {
        struct dev *d = devs;
        devs = d->next;
        d->next = retired;
        retired = d;
    }
    declared_devs = decl;
    ndeclared = n;
    pthread_mutex_unlock(&lock);
}

void nat_devices_end(void)
{
    pthread_mutex_lock(&lock);
    declared_devs = NULL; /* the caller may free them once the run returns */
    ndeclared = 0;
    pthread_mutex_unlock(&lock);
}

/* The platform file's declaration of `name` (lock held), NULL if none. */
static const struct plat_dev_desc *declared(const char *name)
{
    for (int i = 0; i < ndeclared; i++)
        if (strcmp(declared_devs[i].name, name) == 0) return &declared_devs[i];
    return NULL;
}

/* May `name` be a device of `type` (lock held)? Sets *dev to its entry. */
static int check(const char *name, enum nat_dev_type type, struct dev **dev,
                 const struct plat_dev_desc **section)
{
    struct dev *d = devs;
    while (d && strcmp(d->name, name) != 0) d = d->next;
    *dev = d;
    *section = NULL;
    if (d) return d->type == type ? PLAT_OK : PLAT_ENOENT;
    const struct plat_dev_desc *s = declared(name);
    if (s && strcmp(s->type, type_names[type]) != 0) return PLAT_ENOENT;
    *section = s;
    return PLAT_OK;
}

int nat_dev_check(const char *name, enum nat_dev_type type)
{
    struct dev *d;
    const struct plat_dev_desc *s;
    if (!name || !*name) return PLAT_EINVAL;
    pthread_mutex_lock(&lock);
    int rc = check(name, type, &d, &s);
    pthread_mutex_unlock(&lock);
    return rc;
}

static void *construct(enum nat_dev_type type, const struct plat_dev_desc *s, const char *name,
                       int *status)
{
    switch (type) {
    case NAT_HWQ:
        return nat_hwq_new(s, status);
    case NAT_MESH:
        return nat_mesh_new(s, status);
    default:
        return nat_accel_new(name, status);
    }
}

void *nat_dev_open(const char *name, enum nat_dev_type type, int *status)
{
    struct dev *d;
    const struct plat_dev_desc *s;
    void *obj = NULL;
    int rc = PLAT_EINVAL;
    if (name && *name) {
        pthread_mutex_lock(&lock);
        rc = check(name, type, &d, &s);
        if (rc == PLAT_OK && d) {
            obj = d->obj;
        } else if (rc == PLAT_OK) {
            char *copy = strdup(name);
            d = copy ? calloc(1, sizeof *d) : NULL;
            rc = PLAT_ENOMEM;
            if (d) obj = construct(type, s, name, &rc);
            if (obj) {
                d->name = copy;
                d->type = type;
                d->obj = obj;
                d->next = devs;
                devs = d;
            } else {
                free(d);
                free(copy);
            }
        }
        pthread_mutex_unlock(&lock);
    }
    if (status) *status = rc;
    return obj;
}

int nat_dev_param(const struct plat_dev_desc *dev, const char *key, long dflt, long min, long max,
                  long *out)
{
    *out = dflt;
    int i = 0;
    while (dev && i < dev->nparams && strcmp(dev->params[i].key, key) != 0) i++;
    if (!dev || i == dev->nparams) return PLAT_OK;
    double v = dev->params[i].value;
    if (!(v >= (double)min && v <= (double)max) || v != (double)(long)v) return PLAT_EINVAL;
    *out = (long)v;
    return PLAT_OK;
}
