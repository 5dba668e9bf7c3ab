#include "flow-size-cdf.h"

#include "ns3/experiment-config-error.h"
#include "ns3/text-field.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

namespace ns3
{

namespace
{

using Token = TextField; //!< a word and its column (from 1)

/** \return true if \p text is a whole finite decimal number. */
bool
ParseNumber(const std::string& text, double& value)
{
    errno = 0;
    char* end = nullptr;
    value = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() && !text.empty() && errno == 0 && std::isfinite(value);
}

std::string
Str(double v)
{
    std::ostringstream os;
    os.precision(12);
    os << v;
    return os.str();
}

} // namespace

bool
FlowSizeCdf::ParseFormat(const std::string& name, Format& format)
{
    if (name == "auto")
    {
        format = AUTO;
    }
    else if (name == "percent")
    {
        format = PERCENT;
    }
    else if (name == "cdf")
    {
        format = PROBABILITY;
    }
    else
    {
        return false;
    }
    return true;
}

FlowSizeCdf
FlowSizeCdf::LoadFile(const std::string& path, Format format)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw ExperimentConfigError(path, "", "cannot open the flow-size distribution");
    }
    std::ostringstream text;
    text << in.rdbuf();
    return LoadString(text.str(), path, format);
}

FlowSizeCdf
FlowSizeCdf::LoadString(const std::string& text, const std::string& name, Format format)
{
    FlowSizeCdf cdf;
    std::vector<uint64_t> lines; // line number of each point, for errors
    std::istringstream in(text);
    std::string line;
    uint64_t lineNo = 0;
    bool seenData = false;
    while (std::getline(in, line))
    {
        ++lineNo;
        const std::vector<Token> tokens = SplitBlankFields(line);
        if (tokens.empty() || tokens[0].text[0] == '#')
        {
            continue;
        }
        double values[2];
        for (std::size_t k = 0; k < tokens.size() && k < 2; ++k)
        {
            if (!ParseNumber(tokens[k].text, values[k]))
            {
                throw ExperimentConfigError(name, lineNo, tokens[k].column,
                                            "expected a number, got \"" + tokens[k].text + "\"");
            }
        }
        if (tokens.size() == 1 && !seenData)
        {
            if (values[0] <= 0)
            {
                throw ExperimentConfigError(name, lineNo, tokens[0].column,
                                            "the mean on the first line must be positive, got " +
                                                tokens[0].text);
            }
            cdf.m_declaredMean = values[0];
            seenData = true;
            continue;
        }
        seenData = true;
        if (tokens.size() != 2)
        {
            throw ExperimentConfigError(name, lineNo,
                                        tokens.size() > 2 ? tokens[2].column : tokens[0].column,
                                        "expected two numbers \"size cumulative\", got " +
                                            std::to_string(tokens.size()) + " fields");
        }
        if (values[0] < 0)
        {
            throw ExperimentConfigError(name, lineNo, tokens[0].column,
                                        "size must be >= 0 bytes, got " + tokens[0].text);
        }
        if (values[1] < 0 || values[1] > 100)
        {
            throw ExperimentConfigError(name, lineNo, tokens[1].column,
                                        "cumulative value must be in [0, 100] (percent) or [0, 1] "
                                        "(cdf), got " +
                                            tokens[1].text);
        }
        if (!cdf.m_points.empty())
        {
            const Point& prev = cdf.m_points.back();
            if (values[0] < prev.bytes)
            {
                throw ExperimentConfigError(name, lineNo, tokens[0].column,
                                            "size " + tokens[0].text +
                                                " is smaller than the previous line's " +
                                                Str(prev.bytes) + "; sizes must not decrease");
            }
            if (values[1] < prev.cdf || (values[1] == prev.cdf && values[0] == prev.bytes))
            {
                throw ExperimentConfigError(
                    name, lineNo, tokens[1].column,
                    "cumulative value " + tokens[1].text +
                        " does not increase (previous line: " + Str(prev.cdf) + ")");
            }
            if (values[1] == prev.cdf)
            {
                throw ExperimentConfigError(
                    name, lineNo, tokens[1].column,
                    "cumulative value " + tokens[1].text +
                        " repeats the previous line's at a different size (a zero-probability "
                        "gap), which EmpiricalRandomVariable cannot represent; drop one of the "
                        "two lines");
            }
        }
        cdf.m_points.push_back(Point{values[0], values[1]});
        lines.push_back(lineNo);
    }
    if (cdf.m_points.empty())
    {
        throw ExperimentConfigError(name, lineNo + 1, 1,
                                    "no \"size cumulative\" lines: the distribution is empty");
    }
    const double last = cdf.m_points.back().cdf;
    if (format == AUTO)
    {
        if (last == 100)
        {
            format = PERCENT;
        }
        else if (last == 1)
        {
            format = PROBABILITY;
        }
        else
        {
            throw ExperimentConfigError(
                name, lines.back(), 1,
                "the last cumulative value is " + Str(last) +
                    "; it must be 100 (size percent format) or 1 (size cdf format)");
        }
    }
    const double full = format == PERCENT ? 100.0 : 1.0;
    if (last != full)
    {
        throw ExperimentConfigError(
            name, lines.back(), 1,
            "the last cumulative value is " + Str(last) + "; it must be " + Str(full) +
                (format == PERCENT ? " (size percent format)" : " (size cdf format)"));
    }
    for (auto& p : cdf.m_points)
    {
        p.cdf /= full;
    }
    if (cdf.m_points.back().bytes < 1)
    {
        throw ExperimentConfigError(name, lines.back(), 1, "the largest size is below one byte");
    }
    cdf.m_format = format;
    cdf.m_lines = lines;
    return cdf;
}

uint64_t
FlowSizeCdf::GetLine(std::size_t index) const
{
    return m_lines.at(index);
}

const std::vector<FlowSizeCdf::Point>&
FlowSizeCdf::GetPoints() const
{
    return m_points;
}

FlowSizeCdf::Format
FlowSizeCdf::GetFormat() const
{
    return m_format;
}

double
FlowSizeCdf::GetDeclaredMean() const
{
    return m_declaredMean;
}

double
FlowSizeCdf::GetMean() const
{
    double mean = m_points.front().bytes * m_points.front().cdf;
    for (std::size_t i = 1; i < m_points.size(); ++i)
    {
        const Point& a = m_points[i - 1];
        const Point& b = m_points[i];
        mean += (b.cdf - a.cdf) * (a.bytes + b.bytes) / 2;
    }
    return mean;
}

double
FlowSizeCdf::GetCdf(double bytes) const
{
    if (bytes < m_points.front().bytes)
    {
        return 0;
    }
    double f = m_points.front().cdf;
    for (std::size_t i = 1; i < m_points.size(); ++i)
    {
        const Point& a = m_points[i - 1];
        const Point& b = m_points[i];
        if (bytes >= b.bytes)
        {
            f = b.cdf;
            continue;
        }
        // a.bytes <= bytes < b.bytes, so b.bytes > a.bytes.
        return a.cdf + (b.cdf - a.cdf) * (bytes - a.bytes) / (b.bytes - a.bytes);
    }
    return f;
}

double
FlowSizeCdf::GetMax() const
{
    return m_points.back().bytes;
}

double
FlowSizeCdf::GetQuantile(double r) const
{
    if (r <= m_points.front().cdf)
    {
        return m_points.front().bytes;
    }
    if (r >= m_points.back().cdf)
    {
        return m_points.back().bytes;
    }
    // The first point above r, and the one before it (EmpiricalRandomVariable::DoInterpolate).
    const auto upper = std::upper_bound(m_points.begin(), m_points.end(), r,
                                        [](double v, const Point& p) { return v < p.cdf; });
    const auto lower = upper == m_points.begin() ? upper : std::prev(upper);
    const double c1 = lower->cdf;
    const double c2 = upper->cdf;
    const double v1 = lower->bytes;
    const double v2 = upper->bytes;
    return v1 + ((v2 - v1) / (c2 - c1)) * (r - c1);
}

Ptr<EmpiricalRandomVariable>
FlowSizeCdf::CreateRandomVariable() const
{
    Ptr<EmpiricalRandomVariable> rv = CreateObject<EmpiricalRandomVariable>();
    rv->SetInterpolate(true);
    for (const Point& p : m_points)
    {
        rv->CDF(p.bytes, p.cdf);
    }
    return rv;
}

} // namespace ns3
