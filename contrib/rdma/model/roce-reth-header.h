/*
 * InfiniBand RDMA Extended Transport Header (RETH, IBTA Vol 1, chapter 9), which follows
 * the BTH in the first packet of an RDMA WRITE and in an RDMA READ request.
 */
#ifndef ROCE_RETH_HEADER_H
#define ROCE_RETH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * The 16-byte RETH, in network byte order: virtual address (8 bytes), R_Key
 * (4 bytes), DMA length (4 bytes) of the remote buffer the request targets.
 */
class RoceRethHeader : public Header
{
  public:
    static constexpr uint32_t SERIALIZED_SIZE = 16; //!< bytes on the wire

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RoceRethHeader();
    /** A RETH for \p dmaLength bytes at \p virtualAddress under \p remoteKey. */
    RoceRethHeader(uint64_t virtualAddress, uint32_t remoteKey, uint32_t dmaLength);

    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /** \param virtualAddress remote virtual address of the first byte */
    void SetVirtualAddress(uint64_t virtualAddress);
    uint64_t GetVirtualAddress() const;
    /** \param remoteKey R_Key of the remote memory region */
    void SetRemoteKey(uint32_t remoteKey);
    uint32_t GetRemoteKey() const;
    /** \param dmaLength length in bytes of the whole RDMA operation */
    void SetDmaLength(uint32_t dmaLength);
    uint32_t GetDmaLength() const;

  private:
    uint64_t m_virtualAddress{0}; //!< VA
    uint32_t m_remoteKey{0};      //!< R_Key
    uint32_t m_dmaLength{0};      //!< DMA Length
};

} // namespace ns3

#endif /* ROCE_RETH_HEADER_H */
