// l1d.cpp -- the C66x L1D's streaming misses: one fill per line, in turn.
#include "l1d.h"

#include <algorithm>
#include <stdexcept>
#include <string>

using namespace sc_core;

namespace ipcsim
{

L1d::L1d(sc_module_name name, uint64_t line)
    : sc_module(name), tsock("tsock"), isock("isock"), line_(line)
{
    if (line == 0)
        throw std::invalid_argument(std::string(this->name()) +
                                    ": the line must be at least 1 byte");
    tsock.register_b_transport(this, &L1d::b_transport);
}

void L1d::b_transport(tlm::tlm_generic_payload &gp, sc_time &delay)
{
    OpExt *x = gp.get_extension<OpExt>();
    if (!x || x->op != OP_STREAM) {
        isock->b_transport(gp, delay);
        return;
    }
    x->op = OP_NONE;
    const uint64_t at = gp.get_address(), n = gp.get_data_length();
    unsigned char *data = gp.get_data_ptr();
    // The first line (up to its end), alone: what every fill costs.
    const uint64_t head = std::min(n, line_ - at % line_);
    const uint64_t lines = 1 + (n - head + line_ - 1) / line_;
    // Blocks below may wait (and hand back a smaller delay): time is now + delay.
    const sc_time start = sc_time_stamp() + delay;
    gp.set_data_length((unsigned)head);
    gp.set_streaming_width((unsigned)head);
    isock->b_transport(gp, delay);
    const sc_time one = sc_time_stamp() + delay - start;
    if (lines > 1 && gp.is_response_ok()) {
        // The rest as one read: its bytes on the lanes and banks.
        gp.set_address(at + head);
        gp.set_data_ptr(data + head);
        gp.set_data_length((unsigned)(n - head));
        gp.set_streaming_width((unsigned)(n - head));
        isock->b_transport(gp, delay);
        const sc_time end = std::max(start + one * (double)lines, sc_time_stamp() + delay);
        delay = end - sc_time_stamp();
        gp.set_address(at);
        gp.set_data_ptr(data);
    }
    gp.set_data_length((unsigned)n);
    gp.set_streaming_width((unsigned)n);
}

} // namespace ipcsim
