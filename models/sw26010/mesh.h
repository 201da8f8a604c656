/*
 * models/sw26010/mesh.h -- a register mesh (like the SW26010 CPE rows and columns).
 *
 * The mesh is `arrays` arrays of rows x cols positions. Array a holds cores
 * first + a * stride ... first + a * stride + rows * cols - 1 (stride: cores
 * from one array's first core to the next's), position i of it at
 * (i / cols, i % cols); other cores are not on the mesh. The default layout
 * (first 0, one array) puts core i at (i / cols, i % cols). On the SW26010
 * each core group is an array: its MPE, then its 8 x 8 CPEs (first 1,
 * stride 65).
 *
 * A put sends one word to a core of the sender's row or column of its own
 * array (or to all others of it) and lands in the receiver's row or column
 * receive buffer of `depth` words. The put reserves a slot in every
 * receiver at issue (it is refused while a receiver is full: the sender
 * waits for space and tries again) and the word becomes readable after the
 * mesh latency. A get takes the oldest readable word after the get latency.
 * On the device bus, not the crossbar: the mesh is its own network.
 */
#ifndef IPCSIM_MODELS_MESH_H
#define IPCSIM_MODELS_MESH_H

#include "../proto.h"

#include <tlm_utils/simple_target_socket.h>

#include <vector>

namespace ipcsim
{

class Kernel;

// Where the arrays' cores are (see above). stride 0: rows * cols.
struct MeshLayout {
    int first = 0, stride = 0, arrays = 1;
};

class Mesh : public sc_core::sc_module
{
  public:
    tlm_utils::simple_target_socket<Mesh> tsock;

    Mesh(sc_core::sc_module_name name, Kernel &kernel, int rows, int cols, int cores, size_t word,
         unsigned depth, double latency_ns, double get_latency_ns, MeshLayout layout = {});

    int rows() const { return rows_; }
    int cols() const { return cols_; }
    size_t word() const { return word_; }
    // Is core on the mesh (a position with a core of the run)?
    bool on(int core) const { return slot(core) >= 0; }
    // Position of core in its array; false if it is not on the mesh.
    bool pos(int core, int *row, int *col) const;
    // The core at (row, col) of core's array; -1 if none.
    int core_at(int core, int row, int col) const;
    const void *reg() const { return &reg_; }

  private:
    struct Ring {
        std::vector<unsigned char> data;
        unsigned head = 0, used = 0, visible = 0;
    };
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    void put(tlm::tlm_generic_payload &gp, struct OpExt &x);
    void get(tlm::tlm_generic_payload &gp, struct OpExt &x);
    // Array * rows * cols + position of core; -1 if it is not on the mesh.
    int slot(int core) const;
    // The receivers' slots of a put by core `from`, in order (cores only).
    template <class F> void each_receiver(int from, int dir, int dest, F f);

    Kernel &kernel_;
    int rows_, cols_, cores_;
    MeshLayout lay_;
    size_t word_;
    unsigned depth_;
    uint64_t latency_ps_, get_ps_;
    std::vector<Ring> rx_; // slot * 2 + direction
    uint64_t reg_ = 0;     // the register the device bus decodes to us
};

} // namespace ipcsim

#endif
