/*
 * The error every configuration problem is reported with: dcb's ConfigError.
 */
#ifndef EXPERIMENT_CONFIG_ERROR_H
#define EXPERIMENT_CONFIG_ERROR_H

#include "ns3/config-error.h"

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The experiment parser's name for ConfigError (contrib/config/model/config-error.h),
 * the one located-error type of every file the suite reads (experiment JSON,
 * NIC profiles, SONiC config_db): "<file>: <JSON pointer>: <reason>", or
 * "<file>:<line>:<column>: <reason>" for a JSON syntax error.
 */
using ExperimentConfigError = ConfigError;

} // namespace ns3

#endif /* EXPERIMENT_CONFIG_ERROR_H */
