#ifndef ROCE_LAB_TEST_FUNCTION_CALLBACK_H
#define ROCE_LAB_TEST_FUNCTION_CALLBACK_H

#include "ns3/callback.h"

#include <functional>

namespace ns3
{

/// Calls *function with the callback's arguments (see MakeFunctionCallback).
template <typename... Args>
void
CallFunction(std::function<void(Args...)>* function, Args... args)
{
    (*function)(args...);
}

/**
 * An ns3::Callback that calls *function, which must outlive it: a test's lambda as a trace sink
 * or hook. ns-3 builds a Callback from a lambda only from 3.37 on; this is the API common to
 * 3.35, 3.36 and 3.37.
 */
template <typename... Args>
Callback<void, Args...>
MakeFunctionCallback(std::function<void(Args...)>* function)
{
    return MakeBoundCallback(&CallFunction<Args...>, function);
}

} // namespace ns3

#endif // ROCE_LAB_TEST_FUNCTION_CALLBACK_H
