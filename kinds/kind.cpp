// kind.cpp -- what the platform kinds share: core sections, checks, devices.
#include "kind.h"
#include "devtype.h"

#include <cstdio>
#include <cstring>

namespace ipcsim
{

CoreParams core_params(const struct conf *c, const char *path)
{
    std::string p = path;
    CoreParams cp;
    cp.type = conf_str(c, (p + ".type").c_str(), "");
    cp.clock_mhz = conf_num(c, (p + ".clock_mhz").c_str(), 0);
    const struct conf_node *caps = conf_get(conf_root(c), (p + ".caps").c_str());
    for (size_t i = 0; i < conf_len(caps); i++)
        cp.caps |= plat_cap_bit(conf_text(conf_at(caps, i)));
    cp.local_bytes = (uint64_t)conf_num(c, (p + ".local_bytes").c_str(), 0);
    cp.local_latency_ns = conf_num(c, (p + ".local_latency_ns").c_str(), 0);
    cp.local_bandwidth_MBps = conf_num(c, (p + ".local_bandwidth_MBps").c_str(), 0);
    cp.rx_channels = (unsigned)conf_num(c, (p + ".rx_channels").c_str(), 0);
    cp.timeslice_ns = conf_num(c, (p + ".timeslice_ns").c_str(), 0);
    const struct conf_node *costs = conf_get(conf_root(c), (p + ".costs").c_str());
    for (size_t i = 0; i < conf_len(costs); i++) {
        double v = 0;
        conf_number(conf_at(costs, i), &v);
        cp.costs.emplace_back(conf_key(costs, i), (uint64_t)v);
    }
    return cp;
}

plat_core_desc core_desc(const CoreParams &p, const char *type)
{
    plat_core_desc d;
    d.type = type;
    d.caps = p.caps;
    d.clock_mhz = p.clock_mhz;
    d.local_bytes = (size_t)p.local_bytes;
    d.rx_channels = p.rx_channels;
    return d;
}

int check_bad(const struct conf *c, const char *path, char *err, size_t errlen, const char *what)
{
    const struct conf_node *n = conf_get(conf_root(c), path);
    char where[512]; // FILE:LINE, or the --set that gave the value
    conf_where(c, n, where, sizeof where);
    snprintf(err, errlen, "%s: '%s' %s", where, path, what);
    return -1;
}

int check_caps(const struct conf *c, const char *path, char *err, size_t errlen)
{
    const struct conf_node *caps = conf_get(conf_root(c), path);
    for (size_t i = 0; i < conf_len(caps); i++) {
        const struct conf_node *n = conf_at(caps, i);
        const char *name = conf_text(n);
        if (!name || !plat_cap_bit(name)) {
            char where[512]; // FILE:LINE, or the --set that gave the list
            conf_where(c, n, where, sizeof where);
            snprintf(err, errlen,
                     "%s: '%s' lists unknown capability '%s' (known: cas, fetch_add, "
                     "local_mem, dma, threads)",
                     where, path, name ? name : "?");
            return -1;
        }
    }
    return 0;
}

// What every device section has; its type's rules say the rest.
static const struct conf_rule common_rules[] = {
    {"devices.*.type", CONF_T_STR, true, 1, 0},
    {"devices.*.*", CONF_T_ANY, false, 1, 0},
    {nullptr, CONF_T_ANY, false, 0, 0},
};

int check_devices(const struct conf *c, char *err, size_t errlen)
{
    const struct conf_node *devs = conf_get(conf_root(c), "devices");
    for (size_t i = 0; i < conf_len(devs); i++) {
        std::string base = std::string("devices.") + conf_key(devs, i);
        const struct conf_node *d = conf_at(devs, i);
        if (conf_check(c, d, base.c_str(), common_rules, err, errlen)) return -1;
        const struct conf_node *tn = conf_get(d, "type");
        const DevType *t = devtype_find(conf_text(tn));
        if (!t) {
            std::string known;
            for (size_t k = 0; devtypes[k]; k++)
                known += std::string(k ? ", " : "") + devtypes[k]->name;
            char where[512];
            conf_where(c, tn, where, sizeof where);
            snprintf(err, errlen, "%s: '%s.type' is '%s', not a device type (%s)", where,
                     base.c_str(), conf_text(tn), known.c_str());
            return -1;
        }
        if (conf_check(c, d, base.c_str(), t->rules, err, errlen)) return -1;
    }
    return 0;
}

void describe_devices(const struct conf *c, DevDescs &out)
{
    const struct conf_node *devs = conf_get(conf_root(c), "devices");
    size_t n = conf_len(devs);
    out.params.assign(n, {});
    out.devs.clear();
    for (size_t i = 0; i < n; i++) {
        const struct conf_node *d = conf_at(devs, i);
        for (size_t k = 0; k < conf_len(d); k++) {
            double v;
            if (conf_number(conf_at(d, k), &v)) out.params[i].push_back({conf_key(d, k), v});
        }
        plat_dev_desc dd;
        dd.name = conf_key(devs, i);
        const DevType *t = devtype_find(conf_text(conf_get(d, "type")));
        dd.type = t ? t->api : conf_text(conf_get(d, "type"));
        dd.params = out.params[i].data();
        dd.nparams = (int)out.params[i].size();
        out.devs.push_back(dd);
    }
}

void dev_desc_set(DevDescs &out, size_t i, const char *key, double value)
{
    std::vector<plat_dev_param> &v = out.params[i];
    size_t k = 0;
    while (k < v.size() && strcmp(v[k].key, key) != 0) k++;
    if (k == v.size()) v.push_back({key, value});
    v[k].value = value;
    out.devs[i].params = v.data(); // the vector may have moved
    out.devs[i].nparams = (int)v.size();
}

} // namespace ipcsim
