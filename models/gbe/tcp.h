/*
 * models/gbe/tcp.h -- byte streams as TCP connections between the hosts of a
 * platform, over Gigabit Ethernet between hosts and loopback inside one
 * (a `type: tcp` stream device; docs/gbe.md).
 *
 * Net keeps the socket layer (listeners, buffers, close, pollers); this
 * block is the hosts' TCP/IP stacks below it. Cores belong to hosts in
 * order, cores_per_host each. A connection's direction is a flow: a send
 * copies into the writer's send buffer (sndbuf_bytes, freed by ACKs); the
 * writer's host cuts segments of at most one MSS from it as its receive
 * window allows (TCP_NODELAY: a short segment goes at once) and sends them
 * one after the other through its transmit path (tx_segment_ns each) to the
 * NIC (models/gbe/eth.h) or, inside a host, straight to its own receive path.
 * The receiving host takes each packet after the interrupt (irq_ns, wire
 * only) through its receive path (rx_segment_ns each, one at a time); the
 * bytes are then readable and the ACK rules run: an ACK at once when more
 * than one MSS is unacknowledged (every second full segment) or a FIN came,
 * else after delack_ms unless data going back carries it first; a window
 * update when a read has at least doubled a window that had fallen to half
 * the buffer (Linux's tcp_cleanup_rbuf). The handshake is timed by formula
 * and takes no wire time. plat_stream_pair is a pipe inside the host, with
 * Net's own wire (no latency, pipe_bytes).
 *
 * Calls cost the host's system call: send_ns, recv_ns (pipe_write_ns,
 * pipe_read_ns on a pair), epoll_wait_ns for a poller wait, syscall_ns for
 * the others; a thread woken from a wait needs wakeup_ns before it retries.
 */
#ifndef IPCSIM_MODELS_TCP_H
#define IPCSIM_MODELS_TCP_H

#include "eth.h"
#include "../net.h"

#include <map>

namespace ipcsim
{

struct TcpParams {
    int cores_per_host = 1;
    EthParams eth;
    uint64_t ip_header_bytes = 20, tcp_header_bytes = 20, timestamps = 0;
    uint64_t rcvbuf_bytes = 0, sndbuf_bytes = 0, lo_mtu = 65536;
    double delack_ms = 40;
    // host costs, ns
    double syscall_ns = 0, send_ns = 0, recv_ns = 0, epoll_wait_ns = 0;
    double tx_segment_ns = 0, rx_segment_ns = 0, irq_ns = 0, wakeup_ns = 0;
    double pipe_write_ns = 0, pipe_read_ns = 0;
    uint64_t pipe_bytes = 65536;
};

// Bytes of TCP option in every segment when timestamps are on (RFC 7323).
constexpr uint64_t TCP_TS_OPTION_BYTES = 12;

class Tcp : public Net
{
  public:
    tlm_utils::simple_initiator_socket<Tcp> tx[2];     // to the host's NIC
    tlm_utils::simple_target_socket_tagged<Tcp> rx[2]; // from it

    // hosts: how many the platform's cores make (at most 2: one link).
    Tcp(sc_core::sc_module_name name, Kernel &kernel, const TcpParams &p, int hosts);

    uint64_t wake_ps() const override { return wakeup_ps_; }
    int host(int core) const { return core / p_.cores_per_host; }
    uint64_t mss(bool local) const;
    void set_link(const Eth *eth) { eth_ = eth; }

  protected:
    uint64_t call_ps(const OpExt &x) const override;
    uint64_t handshake_ps(int core, const Stream *listener) const override;
    void opened(Conn &c, bool pair) override;
    uint64_t space(const Pipe &p) const override;
    void wrote(Pipe &p, uint64_t k) override;
    uint64_t arrived(const Pipe &p) const override;
    bool eof(const Pipe &p) const override;
    uint64_t next_change(const Pipe &p) const override;
    void read(Pipe &p) override;
    void shut(Pipe &out) override;
    void freed(Conn &c) override;

  private:
    void transmit(int h); // a host's transmit path (a process)
    Packet cut(Flow &f);
    bool has_work(const Flow &f) const;
    void enqueue(Flow &f);
    void deliver(int h, tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    void receive(int h, Packet &pk); // at the end of the receive path
    void ack_soon(Flow &f);
    void timers(); // delayed ACKs (a process)
    uint64_t window(const Flow &f) const;
    Flow *find(uint64_t id) const;

    TcpParams p_;
    int hosts_;
    const Eth *eth_ = nullptr;
    uint64_t wakeup_ps_, delack_ps_;
    struct Host {
        std::deque<uint64_t> txq; // flows with something to send, in turn
        sc_core::sc_event txev;
        uint64_t rx_free = 0; // ps: the receive path is busy until then
        Timed<Packet> rxq;
        tlm::tlm_generic_payload gp;
    } host_[2];
    std::map<uint64_t, Flow *> flows_;
    uint64_t next_id_ = 1;
    // delayed ACKs: (time, order) -> (flow, arming)
    std::map<std::pair<uint64_t, uint64_t>, std::pair<uint64_t, uint64_t>> timers_;
    uint64_t timer_seq_ = 0;
    sc_core::sc_event timer_ev_;
};

} // namespace ipcsim

#endif
