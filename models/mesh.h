/*
 * models/mesh.h -- a register mesh (like the SW26010 CPE rows and columns).
 *
 * Core i sits at (i / cols, i % cols). A put sends one word to a core of the
 * sender's row or column (or to all others of it) and lands in the
 * receiver's row or column receive buffer of `depth` words. The put reserves
 * a slot in every receiver at issue (it is refused while a receiver is full:
 * the sender waits for space and tries again) and the word becomes readable
 * after the mesh latency. A get takes the oldest readable word after the
 * get latency. On the device bus, not the crossbar: the mesh is its own
 * network.
 */
#ifndef IPCSIM_MODELS_MESH_H
#define IPCSIM_MODELS_MESH_H

#include "proto.h"

#include <tlm_utils/simple_target_socket.h>

#include <vector>

namespace ipcsim
{

class Top;

class Mesh : public sc_core::sc_module
{
  public:
    tlm_utils::simple_target_socket<Mesh> tsock;

    Mesh(sc_core::sc_module_name name, Top &top, int rows, int cols, int cores, size_t word,
         unsigned depth, double latency_ns, double get_latency_ns);

    int rows() const { return rows_; }
    int cols() const { return cols_; }
    size_t word() const { return word_; }
    // Is core on the mesh (a position with a core of the run)?
    bool on(int core) const { return core >= 0 && core < n_; }
    const void *reg() const { return &reg_; }

  private:
    struct Ring {
        std::vector<unsigned char> data;
        unsigned head = 0, used = 0, visible = 0;
    };
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    void put(tlm::tlm_generic_payload &gp, struct OpExt &x);
    void get(tlm::tlm_generic_payload &gp, struct OpExt &x);
    // The receivers of a put: positions, in order; false if one has no core.
    template <class F> void each_receiver(int from, int dir, int dest, F f);

    Top &top_;
    int rows_, cols_, n_;
    size_t word_;
    unsigned depth_;
    uint64_t latency_ps_, get_ps_;
    std::vector<Ring> rx_; // position * 2 + direction
    uint64_t reg_ = 0;     // the register the device bus decodes to us
};

} // namespace ipcsim

#endif
