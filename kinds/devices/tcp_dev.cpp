// tcp_dev.cpp -- device type `tcp`: byte streams as TCP connections between
// hosts over Gigabit Ethernet (models/gbe/tcp.h, eth.h; docs/gbe.md) on the
// device bus; natively TCP sockets.
#include "../devtype.h"

#include "../../models/iobus.h"
#include "../../models/gbe/tcp.h"

namespace ipcsim
{

static const struct conf_rule rules[] = {
    {"devices.*.type", CONF_T_STR, true, 1, 0},
    {"devices.*.cores_per_host", CONF_T_INT, true, 1, 4096},
    {"devices.*.eth", CONF_T_MAP, true, 1, 0},
    {"devices.*.eth.rate_Mbps", CONF_T_NUM, true, MIN_MBITPS, BIG},
    {"devices.*.eth.preamble_bytes", CONF_T_INT, true, 0, 4096},
    {"devices.*.eth.ifg_bytes", CONF_T_INT, true, 0, 4096},
    {"devices.*.eth.header_bytes", CONF_T_INT, true, 0, 4096},
    {"devices.*.eth.fcs_bytes", CONF_T_INT, true, 0, 4096},
    {"devices.*.eth.min_frame_bytes", CONF_T_INT, true, 0, 4096},
    {"devices.*.eth.mtu", CONF_T_INT, true, 68, 1 << 20},
    {"devices.*.eth.nic_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"devices.*.eth.propagation_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"devices.*.tcp", CONF_T_MAP, true, 1, 0},
    {"devices.*.tcp.ip_header_bytes", CONF_T_INT, true, 0, 4096},
    {"devices.*.tcp.tcp_header_bytes", CONF_T_INT, true, 0, 4096},
    {"devices.*.tcp.timestamps", CONF_T_INT, true, 0, 1},
    {"devices.*.tcp.rcvbuf_bytes", CONF_T_INT, true, 1, 1 << 30},
    {"devices.*.tcp.sndbuf_bytes", CONF_T_INT, true, 1, 1 << 30},
    {"devices.*.tcp.lo_mtu", CONF_T_INT, true, 68, 1 << 20},
    {"devices.*.tcp.delack_ms", CONF_T_NUM, true, 0, MAX_MS},
    {"devices.*.host", CONF_T_MAP, true, 1, 0},
    {"devices.*.host.syscall_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"devices.*.host.send_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"devices.*.host.recv_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"devices.*.host.epoll_wait_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"devices.*.host.tx_segment_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"devices.*.host.rx_segment_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"devices.*.host.irq_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"devices.*.host.wakeup_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"devices.*.host.pipe_write_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"devices.*.host.pipe_read_ns", CONF_T_NUM, true, 0, MAX_NS},
    {"devices.*.host.pipe_bytes", CONF_T_INT, true, 1, 1 << 30},
    {nullptr, CONF_T_ANY, false, 0, 0},
};

// Keys of a `type: tcp` section and where their values go.
template <class S, class T> struct Key {
    const char *key;
    T S::*to;
};
template <class S, class T, size_t N>
static void read_keys(const struct conf_node *n, S &s, const Key<S, T> (&keys)[N])
{
    for (const Key<S, T> &k : keys) s.*k.to = (T)dev_param(n, k.key);
}

static TcpParams params(const struct conf_node *n)
{
    static const Key<EthParams, uint64_t> eth_sizes[] = {
        {"eth.preamble_bytes", &EthParams::preamble_bytes},
        {"eth.ifg_bytes", &EthParams::ifg_bytes},
        {"eth.header_bytes", &EthParams::header_bytes},
        {"eth.fcs_bytes", &EthParams::fcs_bytes},
        {"eth.min_frame_bytes", &EthParams::min_frame_bytes},
        {"eth.mtu", &EthParams::mtu}};
    static const Key<EthParams, double> eth_times[] = {
        {"eth.rate_Mbps", &EthParams::rate_Mbps},
        {"eth.nic_ns", &EthParams::nic_ns},
        {"eth.propagation_ns", &EthParams::propagation_ns}};
    static const Key<TcpParams, uint64_t> sizes[] = {
        {"tcp.ip_header_bytes", &TcpParams::ip_header_bytes},
        {"tcp.tcp_header_bytes", &TcpParams::tcp_header_bytes},
        {"tcp.timestamps", &TcpParams::timestamps},
        {"tcp.rcvbuf_bytes", &TcpParams::rcvbuf_bytes},
        {"tcp.sndbuf_bytes", &TcpParams::sndbuf_bytes},
        {"tcp.lo_mtu", &TcpParams::lo_mtu},
        {"host.pipe_bytes", &TcpParams::pipe_bytes}};
    static const Key<TcpParams, double> times[] = {
        {"tcp.delack_ms", &TcpParams::delack_ms},
        {"host.syscall_ns", &TcpParams::syscall_ns},
        {"host.send_ns", &TcpParams::send_ns},
        {"host.recv_ns", &TcpParams::recv_ns},
        {"host.epoll_wait_ns", &TcpParams::epoll_wait_ns},
        {"host.tx_segment_ns", &TcpParams::tx_segment_ns},
        {"host.rx_segment_ns", &TcpParams::rx_segment_ns},
        {"host.irq_ns", &TcpParams::irq_ns},
        {"host.wakeup_ns", &TcpParams::wakeup_ns},
        {"host.pipe_write_ns", &TcpParams::pipe_write_ns},
        {"host.pipe_read_ns", &TcpParams::pipe_read_ns}};
    TcpParams p;
    p.cores_per_host = (int)dev_param(n, "cores_per_host");
    read_keys(n, p.eth, eth_sizes);
    read_keys(n, p.eth, eth_times);
    read_keys(n, p, sizes);
    read_keys(n, p, times);
    return p;
}

static sc_core::sc_module *build(Build &b, const std::string &name, const struct conf_node *n,
                                 double)
{
    const std::string mod = dev_module(name);
    TcpParams p = params(n);
    int hosts = (b.kernel.cores() + p.cores_per_host - 1) / p.cores_per_host;
    Tcp *tcp = b.own(new Tcp(mod.c_str(), b.kernel, p, hosts));
    Eth *eth = b.own(new Eth((mod + "_eth").c_str(), p.eth));
    tcp->set_link(eth);
    for (int h = 0; h < 2; h++) {
        tcp->tx[h].bind(eth->in[h]);
        eth->out[h].bind(tcp->rx[h]);
    }
    b.iobus().attach_target(tcp->tsock, tcp->reg(), sizeof(uint64_t));
    return tcp;
}

extern const DevType tcp_dev;
const DevType tcp_dev = {"tcp", "stream", rules, build};

} // namespace ipcsim
