// mesh.cpp -- row/column register communication with receive buffers.
#include "mesh.h"
#include "../kernel.h"

#include <algorithm>
#include <cstring>

using namespace sc_core;

namespace ipcsim
{

Mesh::Mesh(sc_module_name name, Kernel &kernel, int rows, int cols, int cores, size_t word,
           unsigned depth, double latency_ns, double get_latency_ns, MeshLayout layout)
    : sc_module(name), tsock("tsock"), kernel_(kernel), rows_(rows), cols_(cols), cores_(cores),
      lay_(layout), word_(word), depth_(depth), latency_ps_(ns_to_ps(latency_ns, "latency_ns")),
      get_ps_(ns_to_ps(get_latency_ns, "get_latency_ns"))
{
    if (lay_.stride <= 0) lay_.stride = rows * cols;
    rx_.resize(2 * (size_t)lay_.arrays * (size_t)(rows * cols));
    for (Ring &r : rx_) r.data.resize(word * depth);
    tsock.register_b_transport(this, &Mesh::b_transport);
}

int Mesh::slot(int core) const
{
    if (core < lay_.first || core >= cores_) return -1;
    int a = (core - lay_.first) / lay_.stride, i = (core - lay_.first) % lay_.stride;
    if (a >= lay_.arrays || i >= rows_ * cols_) return -1;
    return a * rows_ * cols_ + i;
}

bool Mesh::pos(int core, int *row, int *col) const
{
    int s = slot(core);
    if (s < 0) return false;
    int i = s % (rows_ * cols_);
    if (row) *row = i / cols_;
    if (col) *col = i % cols_;
    return true;
}

int Mesh::core_at(int core, int row, int col) const
{
    int s = slot(core);
    if (s < 0 || row < 0 || row >= rows_ || col < 0 || col >= cols_) return -1;
    int c = lay_.first + s / (rows_ * cols_) * lay_.stride + row * cols_ + col;
    return c < cores_ ? c : -1;
}

template <class F> void Mesh::each_receiver(int from, int dir, int dest, F f)
{
    int row = 0, col = 0;
    pos(from, &row, &col);
    auto to = [&](int r, int c) {
        int k = core_at(from, r, c);
        if (k >= 0) f(slot(k));
    };
    if (dir == PLAT_MESH_ROW) {
        for (int c = 0; c < cols_; c++)
            if ((dest == PLAT_MESH_BCAST && c != col) || c == dest) to(row, c);
    } else {
        for (int r = 0; r < rows_; r++)
            if ((dest == PLAT_MESH_BCAST && r != row) || r == dest) to(r, col);
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
        if (!full && rx_[(size_t)pos * 2 + (size_t)dir].used == depth_)
            full = &rx_[(size_t)pos * 2 + (size_t)dir];
    });
    if (full) {
        x.status = PLAT_EAGAIN;
        x.watch = full;
        return;
    }
    each_receiver(x.core, dir, dest, [&](int pos) { rx_[(size_t)pos * 2 + (size_t)dir].used++; });
    if (latency_ps_) wait(ps(latency_ps_));
    // Deliveries come in reservation order (one latency for all).
    const unsigned char *word = gp.get_data_ptr();
    each_receiver(x.core, dir, dest, [&](int pos) {
        Ring &r = rx_[(size_t)pos * 2 + (size_t)dir];
        memcpy(&r.data[((r.head + r.visible) % depth_) * word_], word, word_);
        r.visible++;
        kernel_.touched(&r, sizeof r);
    });
}

void Mesh::get(tlm::tlm_generic_payload &gp, OpExt &x)
{
    if (get_ps_) wait(ps(get_ps_));
    Ring &r = rx_[(size_t)slot(x.core) * 2 + (size_t)x.a];
    if (!r.visible) {
        x.status = PLAT_EAGAIN;
        x.watch = &r;
        return;
    }
    memcpy(gp.get_data_ptr(), &r.data[r.head * word_], word_);
    r.head = (r.head + 1) % depth_;
    r.used--;
    r.visible--;
    kernel_.touched(&r, sizeof r);
}

} // namespace ipcsim
