#include "goal-schedule-reader.h"

#include "goal-message-balance.h"

#include "ns3/experiment-config-error.h"

#include <fstream>
#include <sstream>
#include <unordered_map>
#include <utility>

namespace ns3
{

namespace
{

enum class TokenKind : uint8_t
{
    Word,
    Colon,
    Open,
    Close,
    EndOfLine,
    EndOfFile,
};

struct Token
{
    TokenKind kind;
    std::string text;
    uint32_t line;
    uint32_t column;
};

bool
IsBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

bool
IsPunctuation(char c)
{
    return c == ':' || c == '{' || c == '}';
}

/**
 * The tokens of a text, one at a time: words, ':', '{', '}', one end of line per line (a
 * block comment that spans lines counts as one), comments dropped. Lazy, so that a
 * schedule of millions of lines is never held as tokens.
 */
class Lexer
{
  public:
    Lexer(const std::string& text, const std::string& name)
        : m_text(text)
        , m_name(name)
    {
    }

    /** \return the next token (the end of the file, again and again, at the end). */
    Token Lex();

  private:
    void Advance()
    {
        if (m_text[m_i] == '\n')
        {
            ++m_line;
            m_column = 1;
        }
        else
        {
            ++m_column;
        }
        ++m_i;
    }

    /** \return true if a comment opened by '/' and \p second starts at \p k. */
    bool CommentAt(std::size_t k, char second) const
    {
        return m_text[k] == '/' && k + 1 < m_text.size() && m_text[k + 1] == second;
    }

    const std::string& m_text;
    const std::string& m_name;
    std::size_t m_i{0};
    uint32_t m_line{1};
    uint32_t m_column{1};
};

Token
Lexer::Lex()
{
    const std::size_t n = m_text.size();
    while (m_i < n)
    {
        const char c = m_text[m_i];
        if (c == '\n')
        {
            Token t{TokenKind::EndOfLine, "", m_line, m_column};
            Advance();
            return t;
        }
        if (IsBlank(c))
        {
            Advance();
        }
        else if (CommentAt(m_i, '/'))
        {
            while (m_i < n && m_text[m_i] != '\n')
            {
                Advance();
            }
        }
        else if (CommentAt(m_i, '*'))
        {
            const uint32_t line = m_line;
            const uint32_t column = m_column;
            Advance();
            Advance();
            bool spansLines = false;
            while (m_i < n && !(m_text[m_i] == '*' && m_i + 1 < n && m_text[m_i + 1] == '/'))
            {
                spansLines = spansLines || m_text[m_i] == '\n';
                Advance();
            }
            if (m_i >= n)
            {
                throw ExperimentConfigError(m_name, line, column,
                                            "expected '*/' closing this block comment, got end "
                                            "of file");
            }
            Advance();
            Advance();
            if (spansLines)
            {
                return Token{TokenKind::EndOfLine, "", line, column};
            }
        }
        else if (IsPunctuation(c))
        {
            Token t{c == ':'   ? TokenKind::Colon
                    : c == '{' ? TokenKind::Open
                               : TokenKind::Close,
                    std::string(1, c), m_line, m_column};
            Advance();
            return t;
        }
        else
        {
            Token word{TokenKind::Word, "", m_line, m_column};
            const std::size_t start = m_i;
            while (m_i < n && m_text[m_i] != '\n' && !IsBlank(m_text[m_i]) &&
                   !IsPunctuation(m_text[m_i]) && !CommentAt(m_i, '/') && !CommentAt(m_i, '*'))
            {
                Advance();
            }
            word.text = m_text.substr(start, m_i - start);
            return word;
        }
    }
    return Token{TokenKind::EndOfFile, "", m_line, m_column};
}

/** \return true if \p text is a label: [a-zA-Z][a-zA-Z0-9_]*. */
bool
IsLabel(const std::string& text)
{
    auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
    if (text.empty() || !alpha(text[0]))
    {
        return false;
    }
    for (char c : text)
    {
        if (!alpha(c) && !(c >= '0' && c <= '9') && c != '_')
        {
            return false;
        }
    }
    return true;
}

/** \return true if \p text is a decimal integer of at most \p max, into \p value. */
bool
ParseDecimal(const std::string& text, uint64_t max, uint64_t& value)
{
    if (text.empty() || text.size() > 20)
    {
        return false;
    }
    value = 0;
    for (char c : text)
    {
        if (c < '0' || c > '9')
        {
            return false;
        }
        const uint64_t digit = static_cast<uint64_t>(c - '0');
        if (value > (UINT64_MAX - digit) / 10)
        {
            return false;
        }
        value = value * 10 + digit;
    }
    return value <= max;
}

/** A dependency as written: "A requires B", its labels' tokens. */
struct WrittenDependency
{
    Token op;
    Token on;
    bool onStart;
};

/** What a rank block holds, indices local to the block. */
struct Block
{
    std::vector<GoalOp> ops;
    std::vector<std::string> labels;
    std::vector<GoalDependency> dependencies;
    std::vector<uint32_t> dependencyLines;
};

/** The parser of one file: tokens in, blocks out. */
class Parser
{
  public:
    Parser(const std::string& text, const std::string& name)
        : m_lexer(text, name)
        , m_name(name)
        , m_peek(m_lexer.Lex())
    {
    }

    GoalSchedule Parse();

  private:
    /** \return the next token, valid until the next call of Next. */
    const Token& Peek() const { return m_peek; }

    /** \return the next token, and move past it. */
    Token Next()
    {
        Token t = m_peek;
        if (t.kind != TokenKind::EndOfFile)
        {
            m_peek = m_lexer.Lex();
        }
        return t;
    }

    [[noreturn]] void Fail(const Token& t, const std::string& expected) const;
    [[noreturn]] void Problem(const Token& t, const std::string& reason) const;
    void SkipLines();
    /** The statement ends here: an end of line (taken), the end of the file or a '}'. */
    void EndStatement();
    void ExpectWord(const char* word);
    uint64_t Number(const Token& t, uint64_t min, uint64_t max, const std::string& what) const;
    /** A rank of the schedule, or -1 (GoalOp::ANY) if \p any. */
    uint32_t Rank(const Token& t, bool any) const;
    uint64_t Size(const Token& t) const;
    /** The options after an operation, \p allowed of "tag", "cpu", "nic". */
    void Options(GoalOp& op, const std::vector<std::string>& allowed, bool anyTag);
    GoalOp Operation(const Token& keyword, uint32_t rank);
    void ParseBlock(uint32_t rank, const Token& opening);
    /** Resolve \p written into \p block's dependencies. */
    void Resolve(uint32_t rank, const std::unordered_map<std::string, uint32_t>& labels,
                 const std::vector<WrittenDependency>& written, Block& block) const;
    /** Refuse a dependency cycle in \p rank's \p block. */
    void CheckAcyclic(uint32_t rank, const Block& block) const;

    Lexer m_lexer;
    std::string m_name;
    Token m_peek;
    uint32_t m_nRanks{0};
    std::vector<Block> m_blocks;
    std::vector<uint32_t> m_blockLine; //!< per rank: its block's line (0: none yet)
};

std::string
Shown(const Token& t)
{
    switch (t.kind)
    {
        case TokenKind::EndOfLine:
            return "end of line";
        case TokenKind::EndOfFile:
            return "end of file";
        default:
            return "'" + t.text + "'";
    }
}

void
Parser::Fail(const Token& t, const std::string& expected) const
{
    throw ExperimentConfigError(m_name, t.line, t.column,
                                "expected " + expected + ", got " + Shown(t));
}

void
Parser::Problem(const Token& t, const std::string& reason) const
{
    throw ExperimentConfigError(m_name, t.line, t.column, reason);
}

void
Parser::SkipLines()
{
    while (Peek().kind == TokenKind::EndOfLine)
    {
        Next();
    }
}

void
Parser::EndStatement()
{
    const Token& t = Peek();
    if (t.kind == TokenKind::EndOfLine)
    {
        Next();
    }
    else if (t.kind != TokenKind::EndOfFile && t.kind != TokenKind::Close)
    {
        Fail(t, "end of line");
    }
}

void
Parser::ExpectWord(const char* word)
{
    const Token& t = Next();
    if (t.kind != TokenKind::Word || t.text != word)
    {
        Fail(t, std::string("'") + word + "'");
    }
}

uint64_t
Parser::Number(const Token& t, uint64_t min, uint64_t max, const std::string& what) const
{
    uint64_t value = 0;
    if (t.kind != TokenKind::Word || !ParseDecimal(t.text, max, value) || value < min)
    {
        Fail(t,
             what + " (an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "])");
    }
    return value;
}

uint32_t
Parser::Rank(const Token& t, bool any) const
{
    if (any && t.kind == TokenKind::Word && t.text == "-1")
    {
        return GoalOp::ANY;
    }
    return static_cast<uint32_t>(Number(
        t, 0, m_nRanks - 1, any ? "a rank of the schedule or -1 (any)" : "a rank of the schedule"));
}

uint64_t
Parser::Size(const Token& t) const
{
    uint64_t value = 0;
    if (t.kind != TokenKind::Word || t.text.size() < 2 || t.text.back() != 'b' ||
        !ParseDecimal(t.text.substr(0, t.text.size() - 1), GoalScheduleReader::MAX_SIZE, value))
    {
        Fail(t, "a size in bytes such as 1024b (at most 2^63 = " +
                    std::to_string(GoalScheduleReader::MAX_SIZE) + ")");
    }
    return value;
}

void
Parser::Options(GoalOp& op, const std::vector<std::string>& allowed, bool anyTag)
{
    std::vector<bool> seen(allowed.size(), false);
    while (Peek().kind == TokenKind::Word)
    {
        const Token key = Next();
        std::size_t k = 0;
        while (k < allowed.size() && allowed[k] != key.text)
        {
            ++k;
        }
        if (k == allowed.size())
        {
            std::string list;
            for (const std::string& a : allowed)
            {
                list += "'" + a + "', ";
            }
            Fail(key, list + "or end of line");
        }
        if (seen[k])
        {
            Problem(key, "'" + key.text + "' is given twice");
        }
        seen[k] = true;
        const Token value = Next();
        if (key.text == "tag")
        {
            op.tag = anyTag && value.kind == TokenKind::Word && value.text == "-1"
                         ? GoalOp::ANY
                         : static_cast<uint32_t>(Number(value, 0, GoalScheduleReader::MAX_TAG,
                                                        anyTag ? "a tag or -1 (any)" : "a tag"));
        }
        else
        {
            (key.text == "cpu" ? op.cpu : op.nic) = static_cast<uint32_t>(
                Number(value, 0, UINT32_MAX - 1, "a " + key.text + " number"));
        }
    }
    EndStatement();
}

GoalOp
Parser::Operation(const Token& keyword, uint32_t rank)
{
    GoalOp op{};
    op.rank = rank;
    op.line = keyword.line;
    if (keyword.text == "send" || keyword.text == "recv")
    {
        const bool send = keyword.text == "send";
        op.kind = send ? GoalOpKind::Send : GoalOpKind::Recv;
        op.size = Size(Next());
        ExpectWord(send ? "to" : "from");
        op.peer = Rank(Next(), !send);
        Options(op, {"tag", "cpu", "nic"}, !send);
    }
    else if (keyword.text == "calc")
    {
        op.kind = GoalOpKind::Calc;
        op.size = Number(Next(), 0, GoalScheduleReader::MAX_SIZE, "a calc amount");
        Options(op, {"cpu"}, false);
    }
    else
    {
        Fail(keyword, "'send', 'recv' or 'calc'");
    }
    return op;
}

void
Parser::ParseBlock(uint32_t rank, const Token& opening)
{
    Block& block = m_blocks[rank];
    std::unordered_map<std::string, uint32_t> labels; // label -> local index
    std::vector<WrittenDependency> written;
    while (true)
    {
        SkipLines();
        const Token t = Next();
        if (t.kind == TokenKind::Close)
        {
            break;
        }
        if (t.kind == TokenKind::EndOfFile)
        {
            Problem(t, "expected '}' closing the block of rank " + std::to_string(rank) +
                           " opened at line " + std::to_string(opening.line) + ", got end of file");
        }
        if (t.kind != TokenKind::Word)
        {
            Fail(t, "an operation, a dependency or '}'");
        }
        std::string label;
        Token keyword = t;
        if (Peek().kind == TokenKind::Colon)
        {
            if (!IsLabel(t.text))
            {
                Fail(t, "a label ([a-zA-Z][a-zA-Z0-9_]*)");
            }
            const auto it = labels.find(t.text);
            if (it != labels.end())
            {
                Problem(t, "label '" + t.text + "' is defined twice in the block of rank " +
                               std::to_string(rank) + " (first at line " +
                               std::to_string(block.ops[it->second].line) + ")");
            }
            label = t.text;
            Next();
            keyword = Next();
        }
        else if (Peek().kind == TokenKind::Word &&
                 (Peek().text == "requires" || Peek().text == "irequires"))
        {
            const bool onStart = Next().text == "irequires";
            const Token on = Next();
            if (on.kind != TokenKind::Word)
            {
                Fail(on, "a label");
            }
            written.push_back(WrittenDependency{t, on, onStart});
            EndStatement();
            continue;
        }
        else if (t.text != "send" && t.text != "recv" && t.text != "calc")
        {
            const Token& after = Peek();
            if (IsLabel(t.text) && after.kind == TokenKind::Word &&
                (after.text == "send" || after.text == "recv" || after.text == "calc"))
            {
                Fail(Peek(), "':' after a label, or 'requires' or 'irequires'");
            }
            Fail(t, "an operation (LABEL: send|recv|calc ...), a dependency (A requires B, A "
                    "irequires B) or '}'");
        }
        if (keyword.kind != TokenKind::Word)
        {
            Fail(keyword, "'send', 'recv' or 'calc'");
        }
        if (!label.empty())
        {
            labels.emplace(label, static_cast<uint32_t>(block.ops.size()));
        }
        block.ops.push_back(Operation(keyword, rank));
        block.labels.push_back(label);
    }
    Resolve(rank, labels, written, block);
    CheckAcyclic(rank, block);
}

void
Parser::Resolve(uint32_t rank, const std::unordered_map<std::string, uint32_t>& labels,
                const std::vector<WrittenDependency>& written, Block& block) const
{
    for (const WrittenDependency& w : written)
    {
        uint32_t index[2] = {0, 0};
        const Token* named[2] = {&w.op, &w.on};
        for (int k = 0; k < 2; ++k)
        {
            const auto it = labels.find(named[k]->text);
            if (it == labels.end())
            {
                Problem(*named[k], "unknown label '" + named[k]->text +
                                       "': expected a label defined in the block of rank " +
                                       std::to_string(rank) + " (labels are local to their block)");
            }
            index[k] = it->second;
        }
        block.dependencies.push_back(GoalDependency{index[0], index[1], w.onStart});
        block.dependencyLines.push_back(w.op.line);
    }
}

void
Parser::CheckAcyclic(uint32_t rank, const Block& block) const
{
    const std::size_t n = block.ops.size();
    std::vector<uint32_t> waiting(n, 0);
    std::vector<std::vector<uint32_t>> after(n); // dependency indices by the op waited on
    for (uint32_t d = 0; d < block.dependencies.size(); ++d)
    {
        ++waiting[block.dependencies[d].op];
        after[block.dependencies[d].on].push_back(d);
    }
    std::vector<uint32_t> ready;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (waiting[i] == 0)
        {
            ready.push_back(i);
        }
    }
    std::size_t freed = 0;
    while (!ready.empty())
    {
        const uint32_t i = ready.back();
        ready.pop_back();
        ++freed;
        for (uint32_t d : after[i])
        {
            if (--waiting[block.dependencies[d].op] == 0)
            {
                ready.push_back(block.dependencies[d].op);
            }
        }
    }
    if (freed == n)
    {
        return;
    }
    // Every op left waits for another op left: walk back along such waits until one repeats.
    std::vector<uint32_t> waitsOn(n, UINT32_MAX); // a dependency of a left op on a left op
    for (uint32_t d = 0; d < block.dependencies.size(); ++d)
    {
        const GoalDependency& dep = block.dependencies[d];
        if (waiting[dep.op] > 0 && waiting[dep.on] > 0)
        {
            waitsOn[dep.op] = d;
        }
    }
    uint32_t op = 0;
    while (waiting[op] == 0)
    {
        ++op;
    }
    std::vector<uint32_t> order(n, UINT32_MAX);
    std::vector<uint32_t> path;
    while (order[op] == UINT32_MAX)
    {
        order[op] = static_cast<uint32_t>(path.size());
        path.push_back(op);
        op = block.dependencies[waitsOn[op]].on;
    }
    std::string cycle;
    for (std::size_t k = order[op]; k < path.size(); ++k)
    {
        cycle += block.labels[path[k]] + " -> ";
    }
    cycle += block.labels[op];
    throw ExperimentConfigError(m_name, block.dependencyLines[waitsOn[op]], 1,
                                "dependency cycle in the block of rank " + std::to_string(rank) +
                                    ": " + cycle +
                                    " (each waits for the next to start or to complete)");
}

GoalSchedule
Parser::Parse()
{
    SkipLines();
    const Token first = Next();
    if (first.kind != TokenKind::Word || first.text != "num_ranks")
    {
        Fail(first, "'num_ranks N' first");
    }
    m_nRanks = static_cast<uint32_t>(
        Number(Next(), 1, GoalScheduleReader::MAX_RANKS, "the number of ranks (at least 1)"));
    EndStatement();
    m_blocks.resize(m_nRanks);
    m_blockLine.assign(m_nRanks, 0);
    while (true)
    {
        SkipLines();
        const Token t = Next();
        if (t.kind == TokenKind::EndOfFile)
        {
            break;
        }
        if (t.kind != TokenKind::Word || t.text != "rank")
        {
            Fail(t, "'rank R {' or end of file");
        }
        const Token rankToken = Next();
        const uint32_t rank = Rank(rankToken, false);
        if (m_blockLine[rank] != 0)
        {
            Problem(rankToken, "the block of rank " + std::to_string(rank) +
                                   " is given twice (first at line " +
                                   std::to_string(m_blockLine[rank]) + ")");
        }
        m_blockLine[rank] = t.line;
        SkipLines();
        const Token open = Next();
        if (open.kind != TokenKind::Open)
        {
            Fail(open, "'{'");
        }
        ParseBlock(rank, t);
        EndStatement();
    }
    std::vector<GoalOp> ops;
    std::vector<std::string> labels;
    std::vector<GoalDependency> dependencies;
    for (Block& block : m_blocks)
    {
        if (ops.size() + block.ops.size() >= UINT32_MAX)
        {
            throw ExperimentConfigError(m_name, "more than 2^32 - 2 operations");
        }
        const auto offset = static_cast<uint32_t>(ops.size());
        for (GoalDependency d : block.dependencies)
        {
            dependencies.push_back(GoalDependency{d.op + offset, d.on + offset, d.onStart});
        }
        ops.insert(ops.end(), block.ops.begin(), block.ops.end());
        labels.insert(labels.end(), std::make_move_iterator(block.labels.begin()),
                      std::make_move_iterator(block.labels.end()));
        block = Block{};
    }
    GoalSchedule schedule(m_name, m_nRanks, std::move(ops), std::move(labels), dependencies);
    GoalMessageBalance::Check(schedule);
    return schedule;
}

} // namespace

GoalSchedule
GoalScheduleReader::ReadFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw ExperimentConfigError(path, "cannot open the GOAL schedule file");
    }
    std::ostringstream text;
    text << in.rdbuf();
    return ReadString(text.str(), path);
}

GoalSchedule
GoalScheduleReader::ReadString(const std::string& text, const std::string& name)
{
    return Parser(text, name).Parse();
}

} // namespace ns3
