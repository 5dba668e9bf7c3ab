/*
 * One line on stderr when NS_LOG is set for a program whose logging is compiled out.
 */
#ifndef LOG_NOTICE_H
#define LOG_NOTICE_H

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ns3
{

/**
 * Release builds (./roce-lab build, build/) compile the modules' NS_LOG_* statements out
 * (no NS3_LOG_ENABLE), so ns-3's NS_LOG variable selects nothing there and a user who set
 * it would see no line and no reason. When NS_LOG is set and this program was compiled
 * without NS3_LOG_ENABLE, say so once on stderr, with how to get a build that logs. Called
 * first thing by each program's main (\p argv0: its argv[0]); stdout and the output files
 * do not change.
 */
inline void
NoticeLoggingCompiledOut(const char* argv0)
{
#ifndef NS3_LOG_ENABLE
    const char* selected = std::getenv("NS_LOG");
    if (selected == nullptr || *selected == '\0')
    {
        return;
    }
    const char* slash = std::strrchr(argv0, '/');
    const char* name = slash != nullptr ? slash + 1 : argv0;
    std::fprintf(stderr,
                 "%s: NS_LOG is set, but this is a release build: logging is compiled out, so "
                 "it prints nothing; ./roce-lab build --debug builds build-debug/bin/%s with "
                 "logging compiled in (NS_LOG='RdmaDcqcn=level_all' build-debug/bin/%s ...)\n",
                 name, name, name);
#else
    (void) argv0;
#endif
}

} // namespace ns3

#endif /* LOG_NOTICE_H */
