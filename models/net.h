/*
 * models/net.h -- a network of byte streams between cores (a stream device).
 *
 * All listening ports of the run are in one namespace ("host:port": the host
 * part is ignored). A connection has two directions; each carries bytes with
 * the device's latency and bandwidth and holds at most buffer_bytes that the
 * receiver has not read yet (bytes on the wire count). A send copies what
 * fits into the buffer and returns; the bytes leave when the wire is free
 * (one after the other at the bandwidth) and become readable a latency after
 * their last byte left. A close is seen by the peer a latency after its last
 * byte. The handshake: connect returns after a round trip (2 x latency),
 * then the listener is looked up; the connection can be accepted a latency
 * later (the client's last handshake packet arriving).
 *
 * Every operation is one transaction from the core's io socket costing the
 * device's call_ns (the host's network stack); none blocks. An operation that
 * cannot proceed answers PLAT_EAGAIN with the object to watch and, if the
 * state changes by itself later (bytes in flight), when; the plat_* glue
 * sleeps on that and retries.
 *
 * Net is the socket layer; what lies below it (how long a call takes, when
 * written bytes become readable, how much a send may add) is a set of
 * virtual functions, so another network (models/gbe/tcp.h: TCP over Ethernet)
 * derives from Net and keeps listeners, buffers, close and pollers as they
 * are. Net's own versions are the wire described above.
 */
#ifndef IPCSIM_MODELS_NET_H
#define IPCSIM_MODELS_NET_H

#include "proto.h"

#include <tlm_utils/simple_target_socket.h>

#include <deque>
#include <map>
#include <string>
#include <vector>

namespace ipcsim
{

class Kernel;

class Net : public sc_core::sc_module
{
  public:
    tlm_utils::simple_target_socket<Net> tsock;

    Net(sc_core::sc_module_name name, Kernel &kernel, double latency_ns, double bandwidth_MBps,
        uint64_t buffer_bytes, double call_ns);
    ~Net() override;

    const void *reg() const { return &reg_; }
    // How long a thread blocked in a network call needs to run again once
    // woken (the glue waits this before it retries): none here.
    virtual uint64_t wake_ps() const { return 0; }

    struct Stream;
    struct Poller;
    struct Flow; // what a derived network keeps per direction

  protected:
    // The wire of `type: stream` (a derived network's pipes of
    // plat_stream_pair use it too): latency, time per byte, buffer.
    struct Wire {
        uint64_t latency_ps;
        double ps_per_byte;
        uint64_t buffer;
    };
    struct Pipe {                                       // one direction of a connection
        std::vector<unsigned char> buf;                 // ring of the bytes not yet read
        uint64_t sent = 0, got = 0;                     // byte totals
        std::deque<std::pair<uint64_t, uint64_t>> segs; // (end total, arrival ps), unread
        uint64_t wire_free = 0;                         // ps
        bool wclosed = false, rclosed = false;
        uint64_t eof_ps = 0;
        Stream *reader = nullptr, *writer = nullptr;
        const Wire *wire = nullptr; // Net's wire; NULL: the derived network's
        Flow *flow = nullptr;       // the derived network's state
    };
    struct Conn {
        Pipe ab, ba;
        int open = 2;
    };

    // ---- below the socket layer (Net's wire unless a derived network says otherwise)
    // The time one operation takes (x: as the core sent it).
    virtual uint64_t call_ps(const OpExt &x) const;
    // One way of the handshake from core's host to the listener's (NULL: none there).
    virtual uint64_t handshake_ps(int core, const Stream *listener) const;
    // A connection from client to server (pair: inside one core's host) was
    // made: set its pipes up.
    virtual void opened(Conn &c, bool pair);
    virtual uint64_t space(const Pipe &p) const; // bytes a send may add now
    virtual void wrote(Pipe &p, uint64_t k);     // a send added k bytes
    virtual uint64_t arrived(const Pipe &p) const;
    virtual bool eof(const Pipe &p) const;
    virtual uint64_t next_change(const Pipe &p) const;
    virtual void read(Pipe &p);   // a recv took bytes
    virtual void shut(Pipe &out); // its writer closed
    virtual void freed(Conn &) {} // both ends are closed: the connection goes

    Net(sc_core::sc_module_name name, Kernel &kernel, const Wire &wire, double call_ns);
    void changed(Pipe *p); // wake the threads and pollers of both its ends
    Kernel &kernel_;
    const Wire wire_;

  private:
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    void listen(tlm::tlm_generic_payload &gp, OpExt &x);
    void connect(tlm::tlm_generic_payload &gp, OpExt &x);
    void accept(OpExt &x);
    void pair(OpExt &x);
    void send(tlm::tlm_generic_payload &gp, OpExt &x);
    void recv(tlm::tlm_generic_payload &gp, OpExt &x);
    void close(Stream *s);
    void poll(tlm::tlm_generic_payload &gp, OpExt &x);
    void poller_op(OpExt &x);

    Conn *make_conn(Stream *&a, Stream *&b, int core_a, int core_b, bool pair);
    unsigned ready(const Stream *s) const;
    void changed(Stream *s);

    uint64_t call_ps_;
    std::map<std::string, Stream *> listeners_;
    uint64_t reg_ = 0;
};

struct Net::Stream {
    bool listener = false;
    int core = 0; // the core that made it: its host's kernel holds it
    std::string port;
    std::deque<std::pair<Stream *, uint64_t>> backlog; // (server end, when acceptable)
    Pipe *in = nullptr, *out = nullptr;
    Conn *conn = nullptr;
    std::vector<Poller *> pollers;
};

struct Net::Poller {
    struct Item {
        Stream *s;
        unsigned bits;
        void *user;
    };
    std::vector<Item> items; // in the order added
    bool woken = false;
};

} // namespace ipcsim

#endif
