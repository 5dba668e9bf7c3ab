/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "closed-loop-window.h"

#include <algorithm>

namespace ns3
{

ClosedLoopWindow::ClosedLoopWindow(uint64_t outstanding, uint64_t messages,
                                   Callback<void, uint64_t> post)
    : m_outstanding(outstanding)
    , m_messages(messages)
    , m_post(post)
{
}

void
ClosedLoopWindow::Start()
{
    while (StartOne())
    {
    }
}

bool
ClosedLoopWindow::StartOne()
{
    if (m_posted >= std::min(m_outstanding, m_messages))
    {
        return false;
    }
    PostNext();
    return true;
}

bool
ClosedLoopWindow::Complete()
{
    ++m_completed;
    if (!m_stopped && m_posted < m_messages)
    {
        PostNext();
    }
    return m_completed < m_messages;
}

void
ClosedLoopWindow::StopPosting()
{
    m_stopped = true;
}

void
ClosedLoopWindow::PostNext()
{
    m_post(m_posted++);
}

uint64_t
ClosedLoopWindow::GetPosted() const
{
    return m_posted;
}

uint64_t
ClosedLoopWindow::GetCompleted() const
{
    return m_completed;
}

bool
ClosedLoopWindow::IsDone() const
{
    return (m_stopped || m_posted == m_messages) && m_completed == m_posted;
}

} // namespace ns3
