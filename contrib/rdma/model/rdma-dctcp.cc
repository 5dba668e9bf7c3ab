/*
 * DCTCP window congestion control for RDMA queue pairs.
 */
#include "rdma-dctcp.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaDctcp");
NS_OBJECT_ENSURE_REGISTERED(RdmaDctcp);

TypeId
RdmaDctcp::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaDctcp")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaDctcp>()
            .AddAttribute("G",
                          "EWMA gain g of alpha <- (1 - g) alpha + g F, applied once per window "
                          "of ACKs (dimensionless). Default 1/16, DCTCP (SIGCOMM'10, section "
                          "3.1) and RFC 8257 section 3.3.",
                          DoubleValue(1.0 / 16), MakeDoubleAccessor(&RdmaDctcp::m_g),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("InitialWindow",
                          "Initial window in bytes: the path BDP, so that a new QP may fill the "
                          "pipe at once as RDMA NICs do. Default 104000 B: 100 Gb/s x 8.32 us, "
                          "the BDP of the 100 Gb/s leaf-spine used with IRN/SRNIC-style "
                          "transports in ConWeave (SIGCOMM'23) settings.",
                          QueueSizeValue(QueueSize("104000B")),
                          MakeQueueSizeAccessor(&RdmaDctcp::m_initialWindow),
                          MakeQueueSizeChecker())
            .AddAttribute("InitialAlpha",
                          "alpha at QP creation (dimensionless). Default 1: the first marks cut "
                          "the window in half, as Linux dctcp_alpha_on_init = 1024/1024.",
                          DoubleValue(1.0), MakeDoubleAccessor(&RdmaDctcp::m_initialAlpha),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddTraceSource("WindowChange", "The window changed (old, new), bytes.",
                            MakeTraceSourceAccessor(&RdmaDctcp::m_windowTrace),
                            "ns3::RdmaDctcp::WindowChangeTracedCallback");
    return tid;
}

RdmaDctcp::RdmaDctcp() = default;
RdmaDctcp::~RdmaDctcp() = default;

std::string
RdmaDctcp::GetName() const
{
    return "Dctcp";
}

Ptr<RdmaCongestionOps>
RdmaDctcp::Fork() const
{
    Ptr<RdmaDctcp> copy = CopyObject<RdmaDctcp>(this);
    copy->m_state = nullptr;
    copy->m_ackedInObservation = 0;
    copy->m_markedInObservation = 0;
    copy->m_observationLength = 0;
    copy->m_ackedSinceCut = 0;
    copy->m_cutHoldoff = 0;
    copy->m_aiCredit = 0;
    return copy;
}

bool
RdmaDctcp::CheckAttributes(DataRate /*lineRate*/, std::string& attribute, std::string& reason) const
{
    if (m_initialWindow.GetUnit() != QueueSizeUnit::BYTES)
    {
        attribute = "InitialWindow";
        reason = "InitialWindow must be given in bytes (e.g. \"104000B\"), not packets";
        return false;
    }
    return true;
}

void
RdmaDctcp::Init(RdmaCcState* state)
{
    NS_ASSERT_MSG(state != nullptr, "RdmaDctcp::Init needs a state");
    std::string attribute;
    std::string reason;
    NS_ABORT_MSG_IF(!CheckAttributes(state->m_lineRate, attribute, reason),
                    "ns3::RdmaDctcp attribute " << attribute << ": " << reason);
    m_state = state;
    m_state->m_rate = m_state->m_lineRate;
    m_state->m_targetRate = m_state->m_lineRate;
    m_state->m_alpha = m_initialAlpha;
    m_state->m_window = std::max<uint64_t>(m_initialWindow.GetValue(), m_state->m_mtu);
    m_observationLength = m_state->m_window;
}

double
RdmaDctcp::GetG() const
{
    return m_g;
}

uint64_t
RdmaDctcp::GetMinWindow() const
{
    return m_state ? m_state->m_mtu : 0;
}

void
RdmaDctcp::SetWindow(uint64_t window)
{
    if (window != m_state->m_window)
    {
        m_windowTrace(m_state->m_window, window);
        m_state->m_window = window;
    }
}

void
RdmaDctcp::OnCnp()
{
}

void
RdmaDctcp::OnDataSent(uint32_t bytes)
{
}

void
RdmaDctcp::OnAck(const RdmaAckSample& ack)
{
    const uint64_t ackedBytes = ack.ackedBytes;
    const bool ecnEcho = ack.ecnEcho;
    if (ackedBytes == 0)
    {
        return;
    }
    m_ackedInObservation += ackedBytes;
    if (ecnEcho)
    {
        m_markedInObservation += ackedBytes;
    }
    if (m_ackedInObservation >= m_observationLength)
    {
        const double fraction =
            static_cast<double>(m_markedInObservation) / static_cast<double>(m_ackedInObservation);
        m_state->m_alpha = (1.0 - m_g) * m_state->m_alpha + m_g * fraction;
        m_ackedInObservation = 0;
        m_markedInObservation = 0;
        m_observationLength = m_state->m_window;
    }
    m_ackedSinceCut += ackedBytes;
    const uint64_t mtu = m_state->m_mtu;
    if (ecnEcho && m_ackedSinceCut >= m_cutHoldoff)
    {
        const double cut = static_cast<double>(m_state->m_window) * (1.0 - m_state->m_alpha / 2);
        SetWindow(std::max<uint64_t>(mtu, static_cast<uint64_t>(cut)));
        m_ackedSinceCut = 0;
        m_cutHoldoff = m_state->m_window; // at most one cut per window of data
        m_aiCredit = 0;
        return;
    }
    if (!ecnEcho)
    {
        // One MTU per window: mtu x acked / W, with the fraction carried over.
        m_aiCredit += static_cast<double>(mtu) * static_cast<double>(ackedBytes) /
                      static_cast<double>(m_state->m_window);
        const auto whole = static_cast<uint64_t>(m_aiCredit);
        if (whole > 0)
        {
            m_aiCredit -= static_cast<double>(whole);
            SetWindow(m_state->m_window + whole);
        }
    }
}

bool
RdmaDctcp::OnDataReceived(bool ceMarked)
{
    return false;
}

bool
RdmaDctcp::WantsEcnEcho() const
{
    return true;
}

} // namespace ns3
