/*
 * The dc-experiment tests' one way to get the error an experiment text is refused with.
 */
#ifndef ROCE_LAB_TEST_CONFIG_ERROR_OF_H
#define ROCE_LAB_TEST_CONFIG_ERROR_OF_H

#include "ns3/experiment-config-error.h"
#include "ns3/experiment-config.h"

#include <gtest/gtest.h>
#include <string>

namespace ns3
{
namespace test
{

/** Load \p text as "bad.json" and \return the error it is refused with (fails the test if none). */
inline ExperimentConfigError
ConfigErrorOf(const std::string& text)
{
    try
    {
        ExperimentConfig::LoadString(text, "bad.json");
    }
    catch (const ExperimentConfigError& e)
    {
        return e;
    }
    ADD_FAILURE() << "no error for: " << text;
    return ExperimentConfigError("", "", "");
}

} // namespace test
} // namespace ns3

#endif /* ROCE_LAB_TEST_CONFIG_ERROR_OF_H */
