#include "deferred-progress-buffer.h"

namespace ns3
{

DeferredProgressBuffer::DeferredProgressBuffer(std::ostream& out)
    : m_out(out)
{
}

int
DeferredProgressBuffer::overflow(int c)
{
    if (c == traits_type::eof())
    {
        return 0;
    }
    if (m_state == State::Live)
    {
        m_out.put(static_cast<char>(c));
        return c;
    }
    if (m_state == State::Silent)
    {
        return c;
    }
    m_line += static_cast<char>(c);
    if (c == '\n')
    {
        if (m_held.empty())
        {
            m_held = m_line;
        }
        else if (m_line.rfind("End wall clock", 0) == 0)
        {
            m_state = State::Silent;
        }
        else
        {
            m_out << m_held << m_line;
            m_out.flush();
            m_state = State::Live;
        }
        m_line.clear();
    }
    return c;
}

int
DeferredProgressBuffer::sync()
{
    if (m_state == State::Live)
    {
        m_out.flush();
    }
    return 0;
}

} // namespace ns3
