/*
 * Holds back ShowProgress output until a run has lasted long enough to report.
 */
#ifndef DEFERRED_PROGRESS_BUFFER_H
#define DEFERRED_PROGRESS_BUFFER_H

#include <cstdint>
#include <ostream>
#include <streambuf>
#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Passes ShowProgress output through only once the run has lasted long enough
 * to print a progress line: the "Start wall clock" line is held back, and if
 * the next line is the closing "End wall clock" the whole report is dropped,
 * so short runs stay silent.
 */
class DeferredProgressBuffer : public std::streambuf
{
  public:
    explicit DeferredProgressBuffer(std::ostream& out);

  protected:
    int overflow(int c) override;
    int sync() override;

  private:
    enum class State : uint8_t
    {
        Holding,
        Live,
        Silent,
    };

    std::ostream& m_out;
    State m_state{State::Holding};
    std::string m_held;
    std::string m_line;
};

} // namespace ns3

#endif /* DEFERRED_PROGRESS_BUFFER_H */
