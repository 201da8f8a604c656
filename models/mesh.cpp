// mesh.cpp -- row/column register communication with receive buffers.
#include "mesh.h"
#include "top.h"

#include <algorithm>
#include <cstring>

using namespace sc_core;

namespace ipcsim
{

Mesh::Mesh(sc_module_name name, Top &top, int rows, int cols, int cores, size_t word,
           unsigned depth, double latency_ns, double get_latency_ns)
    : sc_module(name), tsock("tsock"), top_(top), rows_(rows), cols_(cols),
      n_(std::min(rows * cols, cores)), word_(word), depth_(depth),
      latency_ps_(ns_to_ps(latency_ns)), get_ps_(ns_to_ps(get_latency_ns)), rx_(2 * (size_t)n_)
{
    for (Ring &r : rx_) r.data.resize(word * depth);
    tsock.register_b_transport(this, &Mesh::b_transport);
}

template <class F> void Mesh::each_receiver(int from, int dir, int dest, F f)
{
    int row = from / cols_, col = from % cols_;
    if (dir == PLAT_MESH_ROW) {
        for (int c = 0; c < cols_; c++)
            if ((dest == PLAT_MESH_BCAST && c != col) || c == dest) f(row * cols_ + c);
    } else {
        for (int r = 0; r < rows_; r++)
            if ((dest == PLAT_MESH_BCAST && r != row) || r == dest) f(r * cols_ + col);
    }
}

void Mesh::b_transport(tlm::tlm_generic_payload &gp, sc_time &delay)
{
    if (delay != SC_ZERO_TIME) wait(delay);
    delay = SC_ZERO_TIME;
    OpExt &x = *gp.get_extension<OpExt>();
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    if (x.op == OP_MESH_PUT)
        put(gp, x);
    else
        get(gp, x);
}

void Mesh::put(tlm::tlm_generic_payload &gp, OpExt &x)
{
    int dir = (int)x.a, dest = (int)(int64_t)x.b;
    // Refused while any receiver is full; positions without a core are skipped.
    const Ring *full = nullptr;
    each_receiver(x.core, dir, dest, [&](int pos) {
        if (pos < n_ && !full && rx_[(size_t)pos * 2 + (size_t)dir].used == depth_)
            full = &rx_[(size_t)pos * 2 + (size_t)dir];
    });
    if (full) {
        x.status = PLAT_EAGAIN;
        x.watch = full;
        return;
    }
    each_receiver(x.core, dir, dest, [&](int pos) {
        if (pos < n_) rx_[(size_t)pos * 2 + (size_t)dir].used++;
    });
    if (latency_ps_) wait(ps(latency_ps_));
    // Deliveries come in reservation order (one latency for all).
    const unsigned char *word = gp.get_data_ptr();
    each_receiver(x.core, dir, dest, [&](int pos) {
        if (pos >= n_) return;
        Ring &r = rx_[(size_t)pos * 2 + (size_t)dir];
        memcpy(&r.data[((r.head + r.visible) % depth_) * word_], word, word_);
        r.visible++;
        top_.touched(&r, sizeof r);
    });
}

void Mesh::get(tlm::tlm_generic_payload &gp, OpExt &x)
{
    if (get_ps_) wait(ps(get_ps_));
    Ring &r = rx_[(size_t)x.core * 2 + (size_t)x.a];
    if (!r.visible) {
        x.status = PLAT_EAGAIN;
        x.watch = &r;
        return;
    }
    memcpy(gp.get_data_ptr(), &r.data[r.head * word_], word_);
    r.head = (r.head + 1) % depth_;
    r.used--;
    r.visible--;
    top_.touched(&r, sizeof r);
}

} // namespace ipcsim
