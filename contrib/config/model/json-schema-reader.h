/*
 * Strict reading of JSON configuration documents: typed fields with defaults
 * and ranges, unknown-key and duplicate-key detection, JSON pointers in errors.
 */
#ifndef JSON_SCHEMA_READER_H
#define JSON_SCHEMA_READER_H

#include "config-error.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup config
 * Reads fields of a JSON document for one file and throws a
 * ConfigError naming that file, the JSON pointer of the field, the
 * reason and the accepted values whenever a field is missing, of the wrong
 * type or out of range. A JSON null counts as an absent field.
 */
class JsonSchemaReader
{
  public:
    using Json = nlohmann::json;

    /**
     * \param file the file name used in every error; relative paths in it are relative
     * to its directory
     */
    explicit JsonSchemaReader(std::string file);
    /**
     * \param file the file name used in every error
     * \param pathBase the directory relative paths in the file are relative to (an
     * experiment's "paths_relative_to"); empty: \p file's directory
     */
    JsonSchemaReader(std::string file, std::string pathBase);

    const std::string& GetFile() const;

    /**
     * The one rule for every path field of a file (topology and flow files, CDFs,
     * config_db files, NIC profiles, host-model files): \p path as given when absolute,
     * else relative to the path base; absolute and normalized, so that an effective
     * configuration written elsewhere names the same file.
     */
    std::string ResolvePath(const std::string& path) const;

    /**
     * Parse \p text. Syntax errors name the line and column; duplicate keys
     * (which nlohmann/json would resolve silently) are errors naming their pointer.
     */
    Json ParseText(const std::string& text) const;

    [[noreturn]] void Fail(const std::string& pointer, const std::string& reason) const;

    /** \return the member \p key of \p object, nullptr when absent or null. */
    static const Json* Find(const Json& object, const std::string& key);
    /** \return \p pointer extended by \p key (escaped as RFC 6901 requires). */
    static std::string Child(const std::string& pointer, const std::string& key);
    static std::string Child(const std::string& pointer, std::size_t index);
    /** \return "a, b, c", at most \p max names and then "...". */
    static std::string JoinNames(const std::vector<std::string>& names, std::size_t max = 40);
    /**
     * \return the names of \p candidates nearest to \p name by edit distance (Levenshtein,
     * case-insensitive), in their order; none when the nearest differs in more than a third
     * of \p name's characters (at least 2): a typo's suggestions ("did you mean").
     */
    static std::vector<std::string> ClosestNames(const std::string& name,
                                                 const std::vector<std::string>& candidates);

    void RequireObject(const Json& value, const std::string& pointer) const;
    /** Require an object whose keys are all in \p allowed. */
    void CheckKeys(const Json& object, const std::string& pointer,
                   const std::vector<std::string>& allowed) const;
    /** An unsigned integer in [min, max]; required when \p fallback is empty. */
    uint64_t GetUint(const Json& object, const std::string& pointer, const std::string& key,
                     std::optional<uint64_t> fallback, uint64_t min, uint64_t max) const;
    bool GetBool(const Json& object, const std::string& pointer, const std::string& key,
                 bool fallback) const;
    /** A string, one of \p allowed unless that is empty. */
    std::string GetString(const Json& object, const std::string& pointer, const std::string& key,
                          std::optional<std::string> fallback,
                          const std::set<std::string>& allowed) const;
    /**
     * Fail at \p pointer if the string \p value holds a NUL: a C string (a file name
     * passed to the OS, an ns-3 name) ends there and the rest would be dropped silently.
     */
    void CheckNoNul(const Json& value, const std::string& pointer) const;
    /** A duration string of at least \p min (see JsonAttributeConverter::ParseTime). */
    Time GetTime(const Json& object, const std::string& pointer, const std::string& key,
                 std::optional<std::string> fallback, Time min) const;
    /** A positive data-rate string. */
    DataRate GetRate(const Json& object, const std::string& pointer, const std::string& key,
                     const std::string& fallback) const;

    // One value at a known pointer, also for files that write numbers as strings (SONiC
    // config_db writes every number as a string of decimal digits).

    /** \return \p object's member \p key; fail at its pointer when absent. */
    const Json& Require(const Json& object, const std::string& pointer,
                        const std::string& key) const;
    /** \return \p value, a string. */
    std::string ReadString(const Json& value, const std::string& pointer) const;
    /** \return \p value, a JSON integer or a string of one ("-3"), in [min, max]. */
    int64_t ReadInteger(const Json& value, const std::string& pointer, int64_t min,
                        int64_t max) const;
    /** \return \p value, a size in bytes: a string of decimal digits or a JSON unsigned. */
    uint64_t ReadByteSize(const Json& value, const std::string& pointer) const;

  private:
    std::string m_file;
    std::string m_pathBase; //!< the directory relative paths are relative to
};

} // namespace ns3

#endif /* JSON_SCHEMA_READER_H */
